package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/eval"
)

// runCodeEval is `autorag eval DIR` on a code set (eval.IsCodeSet).
func runCodeEval(cmd *cobra.Command, g *globals, o *evalOptions, dir string) error {
	repos, err := eval.LoadCodeSet(dir, o.split)
	if err != nil {
		return usagef("eval %s: %w", dir, err)
	}
	work := o.work
	if work == "" {
		if work, err = eval.DefaultWorkspace(dir, "tree", o.analyzer); err != nil {
			return err
		}
	}
	l, err := engine.NewLayout(filepath.Join(work, eval.FileName(repos[0].Name), "tree"))
	if err != nil {
		return err
	}
	s, err := g.settings.resolve(l.ConfigPath())
	if err != nil {
		return err
	}
	if s, err = o.overrides().Apply(s); err != nil {
		return &usageError{err: err}
	}
	modes := eval.DefaultModes(s)
	if o.modes != "" {
		modes = strings.Split(o.modes, ",")
	}
	co := eval.CodeOptions{Workspace: work, Modes: modes, Settings: s}
	if !g.quiet && !g.json {
		co.Progress = func(msg string) { fmt.Fprintln(g.stderr, "eval:", msg) }
	}
	rep, err := eval.RunCode(cmd.Context(), dir, repos, o.split, co)
	if err != nil {
		return err
	}
	if g.json {
		writeJSON(g.stdout, struct {
			OK      bool   `json:"ok"`
			Outcome string `json:"outcome"`
			*eval.CodeReport
		}{true, "ok", rep})
		return nil
	}
	if !g.quiet {
		return rep.WriteTable(g.stdout)
	}
	return nil
}
