package eval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/static"
)

// writeBEIR writes a small BEIR directory: four documents, three judged
// queries in "test" (one graded 2 and 1), one query judged only in "dev".
func writeBEIR(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	docs := []Doc{
		{"d1", "Backoff", "Retry failed requests with exponential backoff and jitter."},
		{"d2", "Cache", "The cache evicts the least recently used entry when full."},
		{"d3", "Keys", "Rotate the signing keys every ninety days."},
		{"d4/x", "Häuser", "Die alten Häuser am Markt wurden im Jahr 1900 gebaut."},
	}
	queries := []Query{{"q1", "exponential backoff"}, {"q2", "least recently used cache"}, {"q3", "Wann wurde das Haus gebaut?"}, {"q4", "signing keys"}}
	var b strings.Builder
	for _, d := range docs {
		j, _ := json.Marshal(d)
		b.Write(append(j, '\n'))
	}
	write(t, filepath.Join(dir, "corpus.jsonl"), b.String())
	b.Reset()
	for _, q := range queries {
		j, _ := json.Marshal(q)
		b.Write(append(j, '\n'))
	}
	write(t, filepath.Join(dir, "queries.jsonl"), b.String())
	write(t, filepath.Join(dir, "qrels", "test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t1\nq2\td2\t1\nq3\td4/x\t1\n")
	write(t, filepath.Join(dir, "qrels", "dev.tsv"), "query-id\tcorpus-id\tscore\nq4\td3\t1\n")
	return dir
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRunEndToEnd(t *testing.T) {
	ds, err := Load(writeBEIR(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Queries) != 3 || len(ds.Docs) != 4 {
		t.Fatalf("loaded %d queries, %d docs", len(ds.Queries), len(ds.Docs))
	}
	s := engine.DefaultSettings()
	s.Embedder = static.New()
	work := t.TempDir()
	rep, err := Run(t.Context(), ds, Options{Workspace: work, Ext: ".md", Settings: s,
		Modes: []string{engine.ModeBM25, engine.ModeVector, engine.ModeHybrid}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Modes) != 3 || rep.Chunks != 4 {
		t.Fatalf("report: %d modes, %d chunks", len(rep.Modes), rep.Chunks)
	}
	bm := rep.Modes[0]
	// q1: d1 (grade 2) first, then d2 (grade 1) is not matched by
	// "exponential backoff": nDCG = 2 / (2 + 1/log2(3)). q2 and q3: 1.
	if bm.Scores.MRR10 != 1 || bm.Scores.Recall100 < 0.83 || bm.Scores.NDCG10 < 0.9 {
		t.Errorf("bm25 scores %+v", bm.Scores)
	}
	for _, m := range rep.Modes {
		if m.Latency.P50 <= 0 || m.Latency.P99 < m.Latency.P50 {
			t.Errorf("%s latency %+v", m.Mode, m.Latency)
		}
	}
	files, err := rep.WriteRuns(filepath.Join(work, "runs"))
	if err != nil || len(files) != 3 {
		t.Fatalf("WriteRuns: %v %v", files, err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Fields(strings.SplitN(string(b), "\n", 2)[0])
	if len(first) != 6 || first[0] != "q1" || first[1] != "Q0" || first[2] != "d1" || first[3] != "1" || first[5] != "autorag-bm25" {
		t.Errorf("first run line %q", first)
	}
	// A second run in the same workspace rewrites nothing and refreshes
	// nothing.
	if _, err := Materialize(ds, filepath.Join(work, "corpus"), ".md"); err != nil {
		t.Fatal(err)
	}
	rep2, err := Run(t.Context(), ds, Options{Workspace: work, Ext: ".md", Settings: s, Modes: []string{engine.ModeBM25}})
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Modes[0].Scores != bm.Scores {
		t.Errorf("second run scores %+v, first %+v", rep2.Modes[0].Scores, bm.Scores)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := writeBEIR(t)
	if _, err := Load(dir, "train"); err == nil {
		t.Error("a missing split loaded")
	}
	write(t, filepath.Join(dir, "qrels", "bad.tsv"), "q1\td1\n")
	if _, err := Load(dir, "bad"); err == nil || !strings.Contains(err.Error(), "3 tab-separated") {
		t.Errorf("two-field judgments: %v", err)
	}
	write(t, filepath.Join(dir, "qrels", "orphan.tsv"), "q9\td1\t1\n")
	if _, err := Load(dir, "orphan"); err == nil {
		t.Error("a judged query missing from queries.jsonl loaded")
	}
}
