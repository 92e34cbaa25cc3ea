package eval

import (
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/internal/indextest"
)

// TestMultilingualJudged runs the judged Thai, Arabic and Greek questions
// of testdata/multilingual through a real index in bm25 and hybrid mode:
// every question's answer must be the first result, and the mixed ones
// (an English term inside a Thai or Arabic question) must also find the
// English page among the first ten. Before Thai was segmented, Thai text
// indexed no Thai terms at all and its questions had none.
func TestMultilingualJudged(t *testing.T) {
	root := copyTree(t, filepath.Join("..", "testdata", "multilingual", "corpus"))
	qrels, queries := readJudged(t, filepath.Join("..", "testdata", "multilingual", "queries.tsv"))
	if len(queries) == 0 {
		t.Fatal("no judged questions read")
	}
	for id := range queries {
		if len(qrels[id]) == 0 {
			t.Fatalf("question %s has no judgment", id)
		}
	}
	e := indextest.Index(t, root)
	for _, mode := range []string{engine.ModeBM25, engine.ModeHybrid} {
		runs := map[string][]string{}
		for id, text := range queries {
			res, err := e.Query(t.Context(), engine.QueryOptions{Text: text, K: 10, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Results {
				runs[id] = append(runs[id], r.Path)
			}
			for path, grade := range qrels[id] {
				at := rankOf(runs[id], path)
				if grade == 2 && at != 1 || at == 0 {
					t.Errorf("%s %q: %s at rank %d (results %q)", mode, text, path, at, runs[id])
				}
			}
		}
		sc := Score(qrels, runs)
		t.Logf("%s: nDCG@10 %.4f MRR@10 %.4f", mode, sc.NDCG10, sc.MRR10)
	}
}

// rankOf is the 1-based rank of path in run, 0 when absent.
func rankOf(run []string, path string) int {
	for i, p := range run {
		if p == path {
			return i + 1
		}
	}
	return 0
}
