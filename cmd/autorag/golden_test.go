package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

type goldenQuery struct{ query, want string }

func readQueries(t *testing.T) []goldenQuery {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "queries.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var qs []goldenQuery
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		q, want, ok := strings.Cut(sc.Text(), "\t")
		if ok {
			qs = append(qs, goldenQuery{q, want})
		}
	}
	return qs
}

// TestGoldenQueries checks that each query of testdata/queries.txt ranks
// its expected file first, and pins the whole top 5 (paths, line spans,
// sections, scores) in testdata/golden_bm25.txt (-update rewrites it).
func TestGoldenQueries(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	var got []string
	for _, q := range readQueries(t) {
		m := mustOK(t, "--root", root, "query", "--json", "-k", "5", q.query).json(t)
		res := m["results"].([]any)
		if len(res) == 0 || res[0].(map[string]any)["path"] != q.want {
			t.Errorf("query %q: first result %v, want %s", q.query, first(res), q.want)
		}
		for _, r := range res {
			r := r.(map[string]any)
			got = append(got, fmt.Sprintf("%s\t%v\t%s:%v\t%s\t%.4f", q.query, r["rank"], r["path"], r["lines"], r["section"], r["score"]))
		}
	}
	golden := filepath.Join("testdata", "golden_bm25.txt")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update once)", err)
	}
	if diff := cmp.Diff(strings.Split(strings.TrimSpace(string(want)), "\n"), got); diff != "" {
		t.Errorf("golden results changed (-want +got):\n%s", diff)
	}
}

func first(res []any) any {
	if len(res) == 0 {
		return "nothing"
	}
	return res[0].(map[string]any)["path"]
}

// TestIgnoredAndBinaryFilesAreNotIndexed queries words that only occur in
// files the corpus's ignore rules exclude.
func TestIgnoredAndBinaryFilesAreNotIndexed(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	for _, word := range []string{"glimmerwick", "snorkelbuoy", "quokkaflange"} {
		m := mustOK(t, "--root", root, "query", "--json", word).json(t)
		if res := m["results"].([]any); len(res) != 0 {
			t.Errorf("%s is only in ignored files, but the query found %v", word, first(res))
		}
	}
	m := mustOK(t, "--root", root, "query", "--json", "incident review").json(t)
	found := false
	for _, r := range m["results"].([]any) {
		if strings.HasPrefix(r.(map[string]any)["path"].(string), "notes/drafts/published-") {
			found = true
		}
	}
	if !found {
		t.Errorf("the .autoragignore negation did not re-include notes/drafts/published-*.md: %v", m["results"])
	}
}
