package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/workspace"
)

func newWorkspaceCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "workspace",
		Short: "Edit the workspace file: the named roots mcp and serve --workspace serve together",
		Long: `The workspace file ($XDG_CONFIG_HOME/autorag/workspaces.toml, default
~/.config/autorag/workspaces.toml; AUTORAG_WORKSPACES names another) lists
named roots. "autorag mcp --workspace all" serves every one of them from one
server ("--workspace NAME" some of them); each root keeps its own index and
.autorag/config.toml.`,
	}
	cmd.AddCommand(newWorkspaceAddCmd(g), newWorkspaceRemoveCmd(g), newWorkspaceListCmd(g))
	return cmd
}

func loadWorkspace() (*workspace.File, error) {
	path, err := workspace.DefaultPath()
	if err != nil {
		return nil, usagef("%w", err)
	}
	f, err := workspace.Load(path)
	if err != nil {
		return nil, usagef("%w", err)
	}
	return f, nil
}

func newWorkspaceAddCmd(g *globals) *cobra.Command {
	var r workspace.Root
	var noWatch bool
	cmd := &cobra.Command{
		Use:   "add DIR",
		Short: "Add a root to the workspace file (named after its directory unless --name)",
		Args:  cobra.ExactArgs(1),
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			path, err := workspace.DefaultPath()
			if err != nil {
				return usagef("%w", err)
			}
			abs, err := filepath.Abs(args[0])
			if err != nil {
				return err
			}
			r.Path = abs
			if r.Name == "" {
				r.Name = agentapi.RootName(abs)
			}
			if noWatch {
				r.Watch = new(false)
			}
			ed, err := workspace.AddRoot(cmd.Context(), path, r)
			if err != nil {
				return usagef("%w", err)
			}
			return printWorkspace(g, ed.File, fmt.Sprintf("added %s (%s) to %s%s", r.Name, r.Path, ed.Path, backupNote(ed)))
		}),
	}
	cmd.Flags().StringVar(&r.Name, "name", "", "the root's name in requests (default: its directory's name)")
	cmd.Flags().BoolVar(&noWatch, "no-watch", false, "a server's --watch leaves this root alone")
	cmd.Flags().StringVar(&r.Poll, "poll", "", "with --watch: poll this root every `duration` instead of file events (NFS, FUSE)")
	cmd.Flags().StringVar(&r.Debounce, "debounce", "", "with --watch: this root's quiet time before a refresh")
	return cmd
}

func newWorkspaceRemoveCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove a root from the workspace file (its index is left as it is)",
		Args:  cobra.ExactArgs(1),
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			path, err := workspace.DefaultPath()
			if err != nil {
				return usagef("%w", err)
			}
			ed, err := workspace.RemoveRoot(cmd.Context(), path, args[0])
			if err != nil {
				return usagef("%w", err)
			}
			return printWorkspace(g, ed.File, fmt.Sprintf("removed %s from %s%s", args[0], ed.Path, backupNote(ed)))
		}),
	}
}

func newWorkspaceListCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the roots of the workspace file",
		Args:  cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			f, err := loadWorkspace()
			if err != nil {
				return err
			}
			return printWorkspace(g, f, "")
		}),
	}
}

// backupNote says where the old file was copied.
func backupNote(ed *workspace.Edited) string {
	if ed.Backup == "" {
		return ""
	}
	return " (the old file is in " + ed.Backup + ")"
}

// printWorkspace prints what changed (note) and, with --json or for list,
// the roots.
func printWorkspace(g *globals, f *workspace.File, note string) error {
	if g.json {
		writeJSON(g.stdout, struct {
			OK      bool             `json:"ok"`
			Outcome string           `json:"outcome"`
			File    string           `json:"file"`
			Roots   []workspace.Root `json:"roots"`
		}{true, "ok", f.Path, f.List()})
		return nil
	}
	if note != "" {
		if !g.quiet {
			fmt.Fprintln(g.stdout, note)
		}
		return nil
	}
	if len(f.Roots) == 0 {
		fmt.Fprintf(g.stdout, "no roots in %s (add one with autorag workspace add DIR)\n", f.Path)
	}
	for _, r := range f.List() {
		extra := ""
		if !r.Watched() {
			extra += "  (not watched)"
		}
		if r.Poll != "" {
			extra += "  poll " + r.Poll
		}
		fmt.Fprintf(g.stdout, "%s\t%s%s\n", r.Name, r.Path, extra)
	}
	return nil
}
