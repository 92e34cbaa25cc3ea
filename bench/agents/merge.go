package main

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"text/tabwriter"

	"github.com/autorag/autorag/agentapi"
)

// runMerge compares one index over every document with the documents
// dealt over 2 and 4 roots served as one workspace, for each way of
// merging the roots' rankings.
func runMerge(ctx context.Context, c *config) error {
	e, paths, err := index(ctx, filepath.Join(c.work, "all"), c.ds.Docs, c)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "roots\tmerge\tnDCG@10\n")
	single := agentapi.Single(e, agentapi.Options{})
	runs, err := search(ctx, single, c, 0)
	single.Close()
	if err != nil {
		return err
	}
	fmt.Fprintf(tw, "1 (one index)\t-\t%.4f\n", ndcg(c, runs, paths))
	for _, n := range []int{2, 4} {
		var ms []agentapi.Member
		all := map[string]string{}
		for i, part := range split(c.ds.Docs, n) {
			e, p, err := index(ctx, filepath.Join(c.work, fmt.Sprintf("split%d", n), fmt.Sprintf("part%d", i)), part, c)
			if err != nil {
				return err
			}
			maps.Copy(all, p)
			ms = append(ms, agentapi.Member{Name: fmt.Sprintf("part%d", i), Engine: e})
		}
		for _, m := range c.merges {
			ws, err := agentapi.NewWorkspace(ms, agentapi.WorkspaceOptions{Merge: m})
			if err != nil {
				return err
			}
			runs, err := search(ctx, ws, c, 0)
			ws.Close()
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%d\t%s\t%.4f\n", n, m, ndcg(c, runs, all))
		}
	}
	return tw.Flush()
}
