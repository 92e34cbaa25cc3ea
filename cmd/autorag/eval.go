package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/eval"
)

type evalOptions struct {
	split      string
	modes      string
	ext        string
	work       string
	runs       string
	analyzer   string
	noCollapse bool
	floor      float64
	feedback   int
}

func newEvalCmd(g *globals) *cobra.Command {
	o := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval DIR",
		Short: "Measure nDCG@10, Recall@100, MRR@10 and latency on a BEIR-format directory or a code set, per mode",
		Long: "eval writes the corpus of DIR (corpus.jsonl, queries.jsonl, qrels/<split>.tsv) as one file per\n" +
			"document into a workspace, indexes it with the configured settings and runs every judged query\n" +
			"in bm25, vector and hybrid mode (the top 100 documents, one result per file).\n\n" +
			"A DIR of source trees with queries and file labels (<name>/tree/, <name>/queries.jsonl with a\n" +
			"category, <name>/qrels/<split>.tsv over paths; or one such <name> folder) is a code set: each\n" +
			"tree is copied into the workspace and indexed, each query asked as `query -k 10` would be, and\n" +
			"file-level NDCG@10 (binary gains, the first 10 distinct files) reported per repository and per\n" +
			"category, with the means over repositories and over queries.",
		Args: cobra.ExactArgs(1),
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			return runEval(cmd, g, o, args[0])
		}),
	}
	f := cmd.Flags()
	g.settings.addIndexFlags(f)
	g.settings.addSearchFlags(f)
	f.StringVar(&o.split, "split", "test", "judgments to use: qrels/<split>.tsv")
	f.StringVar(&o.modes, "modes", "", "comma-separated modes (default bm25, plus vector and hybrid with an embedder)")
	f.StringVar(&o.ext, "ext", ".md", "extension of the materialized documents (.py for a Python code corpus)")
	f.StringVar(&o.work, "work", "", "workspace directory, kept for the next run (default: one per set, extension and analyzer under $TMPDIR/autorag-eval)")
	f.StringVar(&o.runs, "run", "", "write a TREC run file per mode into this directory")
	f.StringVar(&o.analyzer, "analyzer", "", "text analysis: auto (each chunk in its detected language, the default) or english")
	f.BoolVar(&o.noCollapse, "no-collapse", false, "do not collapse results with the same text (but for white space and version numbers)")
	f.Float64Var(&o.floor, "floor", -2, "hybrid: drop vector-only results with a similarity below this (0 = keep them all; default: the fusion's)")
	f.IntVar(&o.feedback, "feedback", -1, "hybrid: add to the query vector the mean vector of BM25's best N chunks (0 = none; default: the fusion's)")
	return cmd
}

func runEval(cmd *cobra.Command, g *globals, o *evalOptions, dir string) error {
	if !strings.HasPrefix(o.ext, ".") || strings.ContainsRune(o.ext, '/') {
		return usagef("--ext must look like .md, got %q", o.ext)
	}
	if eval.IsCodeSet(dir) {
		return runCodeEval(cmd, g, o, dir)
	}
	ds, err := eval.Load(dir, o.split)
	if err != nil {
		return usagef("eval %s: %w", dir, err)
	}
	work := o.work
	if work == "" {
		if work, err = eval.DefaultWorkspace(dir, o.ext, o.analyzer); err != nil {
			return err
		}
	}
	l, err := engine.NewLayout(filepath.Join(work, "corpus"))
	if err != nil {
		return err
	}
	s, err := g.settings.resolve(l.ConfigPath())
	if err != nil {
		return err
	}
	// An evaluation measures the embedder configured, not the one its
	// workspace was last built with.
	s.Recorded = nil
	if s, err = o.overrides().Apply(s); err != nil {
		return &usageError{err: err}
	}
	modes := eval.DefaultModes(s)
	if o.modes != "" {
		modes = strings.Split(o.modes, ",")
	}
	eo := eval.Options{Workspace: work, Ext: o.ext, Modes: modes, Settings: s, NoCollapse: o.noCollapse}
	if !g.quiet && !g.json {
		eo.Progress = func(msg string) { fmt.Fprintln(g.stderr, "eval:", msg) }
	}
	rep, err := eval.Run(cmd.Context(), ds, eo)
	if err != nil {
		return err
	}
	var runFiles []string
	if o.runs != "" {
		if runFiles, err = rep.WriteRuns(o.runs); err != nil {
			return fmt.Errorf("write runs: %w", err)
		}
	}
	if g.json {
		writeJSON(g.stdout, struct {
			OK      bool   `json:"ok"`
			Outcome string `json:"outcome"`
			*eval.Report
			RunFiles []string `json:"run_files,omitempty"`
		}{true, "ok", rep, runFiles})
		return nil
	}
	if !g.quiet {
		return rep.WriteTable(g.stdout)
	}
	return nil
}

// overrides are the settings the flags change; --floor -2 and --feedback
// -1 (their defaults) leave the fusion's.
func (o *evalOptions) overrides() eval.Overrides {
	ov := eval.Overrides{Analyzer: o.analyzer}
	if o.floor != -2 {
		ov.Floor = &o.floor
	}
	if o.feedback != -1 {
		ov.Feedback = &o.feedback
	}
	return ov
}
