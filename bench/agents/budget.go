package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/budget"
)

// runBudget answers every query once (k results, whole passages), then
// fits the answer to each budget with each strategy and scores what is
// shown: nDCG@10 over the documents shown, in the order shown (a document
// left out gains nothing; a trimmed one counts as shown), and how much of
// the relevant passages' text is shown (relShown).
func runBudget(ctx context.Context, c *config) error {
	e, paths, err := index(ctx, filepath.Join(c.work, "all"), c.ds.Docs, c)
	if err != nil {
		return err
	}
	ws := agentapi.Single(e, agentapi.Options{})
	defer ws.Close()
	runs, err := search(ctx, ws, c, 0)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "budget\tstrategy\tnDCG@10 shown\tresults shown\ttrimmed\ttokens used\trel. text shown\ttop rel. half shown\n")
	whole, tokens := 0, 0
	for i, hits := range runs {
		_, used, _ := agentapi.FitHits(hits, c.ds.Queries[i].Text, 1<<30, false, budget.Whole)
		whole, tokens = whole+len(hits), tokens+used
	}
	n := float64(len(runs))
	fmt.Fprintf(tw, "none\tall %d\t%.4f\t%.2f\t0%%\t%.0f\t100%%\t100%%\n", c.k, ndcg(c, runs, paths), float64(whole)/n, float64(tokens)/n)
	for _, b := range []int{500, 1000, 2000} {
		for _, s := range []budget.Strategy{budget.Whole, budget.Tail, budget.Share} {
			shown := make([][]agentapi.Hit, len(runs))
			var count, trimmed, used int
			for i, hits := range runs {
				var u int
				shown[i], u, _ = agentapi.FitHits(hits, c.ds.Queries[i].Text, b, false, s)
				count, used = count+len(shown[i]), used+u
				for _, h := range shown[i] {
					if h.Trimmed {
						trimmed++
					}
				}
			}
			rel, top := relShown(c, runs, shown, paths)
			fmt.Fprintf(tw, "%d\t%s\t%.4f\t%.2f\t%.0f%%\t%.0f\t%.0f%%\t%.0f%%\n", b, s, ndcg(c, shown, paths), float64(count)/n,
				100*float64(trimmed)/float64(max(count, 1)), float64(used)/n, 100*rel, 100*top)
		}
	}
	return tw.Flush()
}

// relShown measures whether the answer's text is inside what is shown:
// over the queries with a judged-relevant passage among the results, the
// mean share of the relevant passages' text (in tokens, omission markers
// not counted) that is shown, and the share of queries whose best-ranked
// relevant passage is shown with at least half its text.
func relShown(c *config, runs, shown [][]agentapi.Hit, paths map[string]string) (rel, top float64) {
	queries := 0
	for i, hits := range runs {
		judged := c.ds.Qrels[c.ds.Queries[i].ID]
		byPath := map[string]string{}
		for _, h := range shown[i] {
			byPath[h.Path] = h.Text
		}
		var sum float64
		n, first := 0, -1.0
		for _, h := range hits {
			if judged[paths[strings.TrimPrefix(h.Path, "./")]] <= 0 {
				continue
			}
			share := 0.0
			if text, ok := byPath[h.Path]; ok {
				share = min(1, float64(budget.Count(unmarked(text)))/float64(max(1, budget.Count(h.Text))))
			}
			if first < 0 {
				first = share
			}
			sum, n = sum+share, n+1
		}
		if n == 0 {
			continue
		}
		queries++
		rel += sum / float64(n)
		if first >= 0.5 {
			top++
		}
	}
	q := float64(max(queries, 1))
	return rel / q, top / q
}

// unmarked is text without the omission markers of earlier trims.
func unmarked(text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if !strings.HasPrefix(l, "[… ") || !strings.Contains(l, "omitted …]") {
			b.WriteString(l)
		}
	}
	return b.String()
}
