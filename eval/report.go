package eval

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
)

// WriteTable prints the report for people.
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s (%s): %d queries, %d documents, %d chunks, refresh %.1f s\n", r.Dataset, r.Split, r.Queries, r.Docs, r.Chunks, r.RefreshSec)
	fmt.Fprintf(w, "settings: %s\n", r.Settings)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "mode\tnDCG@10\tRecall@100\tMRR@10\tp50 ms\tp90 ms\tp99 ms\tempty\tfusion")
	for _, m := range r.Modes {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.4f\t%.2f\t%.2f\t%.2f\t%d\t%s\n", m.Mode, m.Scores.NDCG10, m.Scores.Recall100, m.Scores.MRR10,
			m.Latency.P50, m.Latency.P90, m.Latency.P99, m.Empty, m.Fusion)
	}
	return tw.Flush()
}

// WriteRuns writes one TREC run file per mode into dir, named
// <dataset>.<split>.<mode>.run: "qid Q0 docid rank score autorag-<mode>".
// It returns the paths written.
func (r *Report) WriteRuns(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []string
	for _, m := range r.Modes {
		p := filepath.Join(dir, fmt.Sprintf("%s.%s.%s.run", r.Dataset, r.Split, m.Mode))
		if err := writeRun(p, r.queryIDs, m); err != nil {
			return out, err
		}
		out = append(out, p)
	}
	return out, nil
}

func writeRun(path string, qids []string, m ModeReport) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	for i, hits := range m.Runs {
		for rank, h := range hits {
			fmt.Fprintf(bw, "%s Q0 %s %d %.6f autorag-%s\n", qids[i], h.Doc, rank+1, h.Score, m.Mode)
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
