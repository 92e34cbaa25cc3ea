package main

import (
	"context"
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/budget"
)

// runBudget answers every query once (k results, whole passages), then
// fits the answer to each budget with each strategy and scores what is
// shown: nDCG@10 over the documents shown, in the order shown (a document
// left out gains nothing; a trimmed one counts as shown).
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
	fmt.Fprintf(tw, "budget\tstrategy\tnDCG@10 shown\tresults shown\ttrimmed\ttokens used\n")
	whole, tokens := 0, 0
	for i, hits := range runs {
		_, used, _ := agentapi.FitHits(hits, c.ds.Queries[i].Text, 1<<30, false, budget.Whole)
		whole, tokens = whole+len(hits), tokens+used
	}
	n := float64(len(runs))
	fmt.Fprintf(tw, "none\tall %d\t%.4f\t%.2f\t0%%\t%.0f\n", c.k, ndcg(c, runs, paths), float64(whole)/n, float64(tokens)/n)
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
			fmt.Fprintf(tw, "%d\t%s\t%.4f\t%.2f\t%.0f%%\t%.0f\n", b, s, ndcg(c, shown, paths), float64(count)/n,
				100*float64(trimmed)/float64(max(count, 1)), float64(used)/n)
		}
	}
	return tw.Flush()
}
