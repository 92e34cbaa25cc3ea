package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
)

type queryOptions struct {
	k       int
	perFile int
	path    string
}

func newQueryCmd(g *globals) *cobra.Command {
	o := &queryOptions{}
	cmd := &cobra.Command{
		Use:   "query TEXT",
		Short: "Search the index; results on stdout (--json for scripts)",
		Args:  cobra.MinimumNArgs(1),
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			return runQuery(cmd, g, o, strings.Join(args, " "))
		}),
	}
	cmd.Flags().IntVarP(&o.k, "k", "k", 10, "number of results")
	cmd.Flags().IntVar(&o.perFile, "per-file", 1, "results per source file")
	cmd.Flags().StringVar(&o.path, "path", "", "only paths matching this glob (`*`, `?`, `**`, `[...]`; no `/` = any directory)")
	return cmd
}

// queryEnvelope is the JSON a query prints (DESIGN.md).
type queryEnvelope struct {
	OK          bool            `json:"ok"`
	Outcome     string          `json:"outcome"`
	Query       string          `json:"query"`
	Mode        string          `json:"mode"`
	K           int             `json:"k"`
	Fingerprint string          `json:"fingerprint"`
	Generation  string          `json:"generation"`
	Cached      bool            `json:"cached"`
	TookMS      float64         `json:"took_ms"`
	Results     []engine.Result `json:"results"`
}

func runQuery(cmd *cobra.Command, g *globals, o *queryOptions, text string) error {
	if o.k < 1 {
		return usagef("-k must be at least 1, got %d", o.k)
	}
	if o.perFile < 1 {
		return usagef("--per-file must be at least 1, got %d", o.perFile)
	}
	e, err := g.engine()
	if err != nil {
		return err
	}
	res, err := e.Query(cmd.Context(), engine.QueryOptions{Text: text, K: o.k, PerFile: o.perFile, PathGlob: o.path})
	if err != nil {
		return err
	}
	if g.json {
		writeJSON(g.stdout, queryEnvelope{OK: true, Outcome: "ok", Query: text, Mode: "bm25", K: o.k,
			Fingerprint: res.Fingerprint, Generation: res.Generation, TookMS: res.TookMS, Results: res.Results})
		return nil
	}
	printResults(g.stdout, res.Results, g.verbose)
	return nil
}

func printResults(w io.Writer, results []engine.Result, verbose bool) {
	if len(results) == 0 {
		fmt.Fprintln(w, "no results")
		return
	}
	for _, r := range results {
		fmt.Fprintf(w, "%d. %s:%d-%d", r.Rank, r.Path, r.Lines[0], r.Lines[1])
		if r.Section != "" {
			fmt.Fprintf(w, "  § %s", r.Section)
		}
		fmt.Fprintf(w, "  (%.3f)\n", r.Score)
		lines := snippet(r.Text, 3, 160)
		if verbose {
			lines = snippet(r.Text, 1<<20, 1<<20)
		}
		for _, l := range lines {
			fmt.Fprintf(w, "   %s\n", l)
		}
	}
}

// snippet returns the first n non-blank lines of text, each cut to width.
func snippet(text string, n, width int) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, " \t")
		if strings.TrimSpace(l) == "" {
			continue
		}
		if r := []rune(l); len(r) > width {
			l = string(r[:width]) + "…"
		}
		out = append(out, l)
		if len(out) == n {
			break
		}
	}
	return out
}
