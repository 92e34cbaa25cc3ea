package eval

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteTable prints the report for people: each mode's means, then
// NDCG@10 per repository and per category, one column per mode.
func (r *CodeReport) WriteTable(w io.Writer) error {
	chunks, queries := 0, 0
	for _, x := range r.Repos {
		chunks += x.Chunks
		queries += x.Queries
	}
	fmt.Fprintf(w, "%s (%s): %d repositories, %d queries, %d chunks; file-level NDCG@10\n", r.Set, r.Split, len(r.Repos), queries, chunks)
	fmt.Fprintf(w, "settings: %s\n", r.Settings)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\tqueries\t")
	for _, m := range r.Modes {
		fmt.Fprintf(tw, "%s\t", m.Mode)
	}
	fmt.Fprintln(tw)
	row := func(name string, n int, val func(CodeModeReport) float64) {
		fmt.Fprintf(tw, "%s\t%d\t", name, n)
		for _, m := range r.Modes {
			fmt.Fprintf(tw, "%.4f\t", val(m))
		}
		fmt.Fprintln(tw)
	}
	row("mean over repositories", len(r.Repos), func(m CodeModeReport) float64 { return m.MeanRepos })
	row("mean over queries", queries, func(m CodeModeReport) float64 { return m.MeanQueries })
	if len(r.Modes) == 0 {
		return tw.Flush()
	}
	for i, g := range r.Modes[0].Repos {
		row(g.Name, g.Queries, func(m CodeModeReport) float64 { return m.Repos[i].NDCG10 })
	}
	for i, g := range r.Modes[0].Categories {
		row("category "+g.Name, g.Queries, func(m CodeModeReport) float64 { return m.Categories[i].NDCG10 })
	}
	fmt.Fprint(tw, "p50 ms\t\t")
	for _, m := range r.Modes {
		fmt.Fprintf(tw, "%.2f\t", m.Latency.P50)
	}
	fmt.Fprintln(tw)
	return tw.Flush()
}
