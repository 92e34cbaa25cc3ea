package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/agentconf"
)

type agentsOptions struct {
	install    string
	workspaces []string
	watch      bool
}

func newAgentsCmd(g *globals) *cobra.Command {
	o := &agentsOptions{}
	cmd := &cobra.Command{
		Use:   "agents [CLIENT...]",
		Short: "Print the MCP configuration for Claude Code, Codex CLI, Cursor, VS Code, Gemini CLI and opencode; --install CLIENT writes it",
		Long: `Print, for each coding agent (or those named: claude, codex, cursor, vscode,
gemini, opencode), the configuration that starts "autorag mcp" on this root
(or, with --workspace, on roots of the workspace file), in the file and
format that agent documents. --install CLIENT merges it into that file: the
old file is backed up beside it (FILE.bak), an identical entry is left
alone, and a different "autorag" entry is refused rather than replaced.
Project files go in the root; Codex's goes in $CODEX_HOME (~/.codex).`,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error { return runAgents(cmd.Context(), g, o, args) }),
	}
	cmd.Flags().StringVar(&o.install, "install", "", "write the configuration into this `client`'s file")
	cmd.Flags().StringArrayVar(&o.workspaces, "workspace", nil, "serve these roots of the workspace file instead of the root (all = every one)")
	cmd.Flags().BoolVar(&o.watch, "watch", false, "have the server keep the index fresh (autorag mcp --watch)")
	return cmd
}

// agentsClient is one client's configuration as --json prints it.
type agentsClient struct {
	Client string `json:"client"`
	Title  string `json:"title"`
	File   string `json:"file"`
	Config string `json:"config"`
}

func runAgents(ctx context.Context, g *globals, o *agentsOptions, names []string) error {
	root, err := g.resolveRoot()
	if err != nil {
		return err
	}
	e, err := agentsEntry(root, o)
	if err != nil {
		return err
	}
	if o.install != "" {
		c, err := agentconf.Lookup(o.install)
		if err != nil {
			return usagef("--install: %w", err)
		}
		res, err := agentconf.Install(ctx, c, root, e)
		if err != nil {
			return usagef("%s: %w", c.Title, err)
		}
		return printInstalled(g, c, res)
	}
	clients, err := pickClients(names)
	if err != nil {
		return err
	}
	var out []agentsClient
	for _, c := range clients {
		file, err := c.File(root)
		if err != nil {
			return err
		}
		out = append(out, agentsClient{Client: c.Name, Title: c.Title, File: file, Config: c.Snippet(e)})
	}
	if g.json {
		writeJSON(g.stdout, struct {
			OK      bool           `json:"ok"`
			Outcome string         `json:"outcome"`
			Command []string       `json:"command"`
			Clients []agentsClient `json:"clients"`
		}{true, "ok", append([]string{e.Command}, e.Args...), out})
		return nil
	}
	for i, c := range out {
		if i > 0 {
			fmt.Fprintln(g.stdout)
		}
		fmt.Fprintf(g.stdout, "# %s (%s): %s   (autorag agents --install %s)\n%s", c.Title, c.Client, c.File, c.Client, c.Config)
	}
	return nil
}

// agentsEntry is the server the agents start: this binary's `mcp` on the
// root, or on roots of the workspace file.
func agentsEntry(root string, o *agentsOptions) (agentconf.Entry, error) {
	exe, err := invokedExecutable()
	if err != nil {
		return agentconf.Entry{}, fmt.Errorf("the autorag executable: %w", err)
	}
	args := []string{"mcp", "--root", root}
	if len(o.workspaces) > 0 {
		args = []string{"mcp"}
		for _, w := range o.workspaces {
			args = append(args, "--workspace", w)
		}
	}
	if o.watch {
		args = append(args, "--watch")
	}
	return agentconf.Entry{Name: "autorag", Command: exe, Args: args}, nil
}

func pickClients(names []string) ([]agentconf.Client, error) {
	if len(names) == 0 {
		return agentconf.Clients, nil
	}
	var out []agentconf.Client
	for _, n := range names {
		c, err := agentconf.Lookup(n)
		if err != nil {
			return nil, usagef("%w", err)
		}
		out = append(out, c)
	}
	return out, nil
}

func printInstalled(g *globals, c agentconf.Client, res *agentconf.Installed) error {
	if g.json {
		writeJSON(g.stdout, struct {
			OK bool `json:"ok"`
			*agentconf.Installed
		}{true, res})
		return nil
	}
	if g.quiet {
		return nil
	}
	switch {
	case res.Outcome == "unchanged":
		fmt.Fprintf(g.stdout, "%s: autorag is already configured in %s\n", c.Title, res.File)
	case res.Backup != "":
		fmt.Fprintf(g.stdout, "%s: added autorag to %s (the old file is in %s)\n", c.Title, res.File, res.Backup)
	default:
		fmt.Fprintf(g.stdout, "%s: wrote %s\n", c.Title, res.File)
	}
	return nil
}

// invokedExecutable is the path the user ran autorag by: os.Args[0] made
// absolute, or found on PATH, when it is this very binary. Unlike
// os.Executable it is not resolved through symbolic links, so a
// configuration names the stable link (~/bin/autorag) rather than the
// versioned file it points at today, which an upgrade removes.
func invokedExecutable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	arg0 := os.Args[0]
	if !strings.ContainsRune(arg0, filepath.Separator) {
		if arg0, err = exec.LookPath(arg0); err != nil {
			return exe, nil
		}
	}
	abs, err := filepath.Abs(arg0)
	if err != nil {
		return exe, nil
	}
	a, errA := os.Stat(abs)
	b, errB := os.Stat(exe)
	if errA != nil || errB != nil || !os.SameFile(a, b) {
		return exe, nil
	}
	return abs, nil
}
