package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
)

func newIndexCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Rebuild, reset or verify the index",
	}
	cmd.AddCommand(newRebuildCmd(g), newResetCmd(g), newVerifyCmd(g))
	return cmd
}

func newRebuildCmd(g *globals) *cobra.Command {
	f := &refreshFlags{ro: engine.RefreshOptions{Rebuild: true}}
	cmd := &cobra.Command{
		Use:   "rebuild",
		Short: "Rebuild the index from the sources; the old index serves until the new one commits",
		Args:  cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			return runRefresh(cmd, g, *f)
		}),
	}
	f.add(cmd, g)
	return cmd
}

type resetOptions struct {
	yes     bool
	orphans bool
	wait    time.Duration
}

func newResetCmd(g *globals) *cobra.Command {
	o := &resetOptions{}
	cmd := &cobra.Command{
		Use:   "reset",
		Short: "Remove the index, mirrors and caches (never the lock file or the config)",
		Args:  cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			return runReset(cmd, g, o)
		}),
	}
	cmd.Flags().BoolVar(&o.yes, "yes", false, "do not ask; required when stdin is not a terminal")
	cmd.Flags().DurationVar(&o.wait, "wait", 0, "wait up to this long for the refresh lock")
	cmd.Flags().BoolVar(&o.orphans, "orphans", false, "instead, list the Weaviate indexes autorag made that this root's index does not name (a removed .autorag, another machine's root); with --yes, drop them. In a shared cluster these include other users' indexes")
	return cmd
}

func runReset(cmd *cobra.Command, g *globals, o *resetOptions) error {
	e, err := g.engine()
	if err != nil {
		return err
	}
	if o.orphans {
		return runOrphans(cmd, g, e, o.yes)
	}
	if !o.yes {
		if !isTerminal(g.stdin) {
			return usagef("index reset removes the index: pass --yes to confirm (stdin is not a terminal, so it cannot ask)")
		}
		fmt.Fprintf(g.stderr, "Remove the index, mirrors and caches under %s? [y/N] ", e.Layout.Dir)
		var answer string
		fmt.Fscanln(g.stdin, &answer)
		if answer != "y" && answer != "yes" {
			return usagef("index reset cancelled: nothing was removed (answer y to remove, or pass --yes)")
		}
	}
	removed, err := e.Reset(cmd.Context(), o.wait, commandLine())
	if err != nil {
		return err
	}
	if removed == nil {
		removed = []string{}
	}
	if g.json {
		writeJSON(g.stdout, map[string]any{"ok": true, "outcome": "reset", "removed": removed})
	} else if !g.quiet {
		fmt.Fprintf(g.stdout, "reset: removed %d items\n", len(removed))
	}
	return nil
}

func newVerifyCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "verify",
		Short: "Check every artifact against the digests in the sidecar",
		Args:  cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			e, err := g.engine()
			if err != nil {
				return err
			}
			problems, err := e.Verify(cmd.Context())
			if err != nil {
				return err
			}
			if problems == nil {
				problems = []engine.Problem{}
			}
			if g.json {
				outcome := "ok"
				if len(problems) > 0 {
					outcome = "corrupt"
				}
				writeJSON(g.stdout, map[string]any{"ok": len(problems) == 0, "outcome": outcome, "problems": problems})
			} else {
				for _, p := range problems {
					fmt.Fprintf(g.stdout, "%s: %s\n", p.Path, p.Reason)
				}
				if len(problems) == 0 && !g.quiet {
					fmt.Fprintln(g.stdout, "ok: every artifact matches the sidecar")
				}
			}
			if len(problems) > 0 {
				if !g.json {
					fmt.Fprintln(g.stderr, "autorag: index verify found corrupt artifacts: run `autorag index rebuild` to rebuild them from the sources")
				}
				return &silentError{err: errors.New("index verify found corrupt artifacts")}
			}
			return nil
		}),
	}
}

// runOrphans lists (or, with yes, drops) the Weaviate indexes this root's
// index does not name.
func runOrphans(cmd *cobra.Command, g *globals, e *engine.Engine, yes bool) error {
	found, err := e.WeaviateOrphans(cmd.Context())
	if err != nil {
		return err
	}
	aliases := slices.Sorted(maps.Keys(found))
	dropped := []string{}
	if yes {
		if dropped, err = e.DropWeaviateOrphans(cmd.Context(), aliases); err != nil {
			return err
		}
	}
	if g.json {
		writeJSON(g.stdout, map[string]any{"ok": true, "outcome": "orphans", "orphans": found, "dropped": dropped})
		return nil
	}
	if g.quiet {
		return nil
	}
	for _, a := range aliases {
		fmt.Fprintf(g.stdout, "%s: %s\n", a, strings.Join(found[a], ", "))
	}
	switch {
	case yes:
		fmt.Fprintf(g.stdout, "dropped %d orphan indexes\n", len(dropped))
	case len(aliases) > 0:
		fmt.Fprintf(g.stdout, "%d orphan indexes (nothing dropped: pass --yes to drop them)\n", len(aliases))
	default:
		fmt.Fprintln(g.stdout, "no orphan indexes")
	}
	return nil
}
