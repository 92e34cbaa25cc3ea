package eval

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine"
)

func TestFileNDCG(t *testing.T) {
	labels := map[string]int{"a.py": 2, "b.py": 1}
	cases := []struct {
		files []string
		want  float64
	}{
		// The README's example: b first, a 4th.
		{[]string{"b.py", "x", "y", "a.py"}, (1 + 1/math.Log2(5)) / (1 + 1/math.Log2(3))},
		// Repeats of a file are not ranks of their own.
		{[]string{"x", "x", "x", "a.py", "b.py"}, (1/math.Log2(3) + 1/math.Log2(4)) / (1 + 1/math.Log2(3))},
		// Only the first 10 distinct files count.
		{[]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a.py"}, 0},
		{[]string{"a.py", "b.py"}, 1},
		{nil, 0},
	}
	for _, c := range cases {
		if got := FileNDCG(labels, c.files); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("FileNDCG(%v) = %.6f, want %.6f", c.files, got, c.want)
		}
	}
	if got := FileNDCG(map[string]int{}, []string{"a"}); got != 0 {
		t.Errorf("nothing labelled: %g", got)
	}
}

// writeCodeSet writes a set of two small repositories: alpha (two
// queries, one per category) and beta (one query); beta's tree has a
// symlink.
func writeCodeSet(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "alpha", "tree", "retry.go"), "package alpha\n\n// Retry calls f again with exponential backoff and jitter.\nfunc Retry(f func() error) error { return f() }\n")
	write(t, filepath.Join(dir, "alpha", "tree", "cache", "lru.go"), "package cache\n\n// Evict drops the least recently used entry when the cache is full.\nfunc Evict() {}\n")
	write(t, filepath.Join(dir, "alpha", "tree", "README.md"), "# alpha\n\nA library of small helpers.\n")
	write(t, filepath.Join(dir, "alpha", "queries.jsonl"), `{"_id":"alpha-1","text":"exponential backoff","category":"semantic"}
{"_id":"alpha-2","text":"least recently used eviction","category":"symbol"}
{"_id":"alpha-3","text":"unlabelled","category":"semantic"}
`)
	write(t, filepath.Join(dir, "alpha", "qrels", "test.tsv"), "query-id\tpath\tscore\nalpha-1\tretry.go\t2\nalpha-2\tcache/lru.go\t2\nalpha-2\tnowhere.go\t1\n")
	write(t, filepath.Join(dir, "beta", "tree", "keys.py"), "def rotate_signing_keys():\n    \"\"\"Rotate the signing keys every ninety days.\"\"\"\n    return 90\n")
	if err := os.Symlink("keys.py", filepath.Join(dir, "beta", "tree", "link.py")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "beta", "queries.jsonl"), `{"_id":"beta-1","text":"rotate signing keys","category":"semantic"}`+"\n")
	write(t, filepath.Join(dir, "beta", "qrels", "test.tsv"), "query-id\tpath\tscore\nbeta-1\tkeys.py\t2\n")
	return dir
}

func TestRunCodeEndToEnd(t *testing.T) {
	set := writeCodeSet(t)
	if !IsCodeSet(set) || !IsCodeSet(filepath.Join(set, "beta")) || IsCodeSet(writeBEIR(t)) {
		t.Fatal("IsCodeSet does not tell a code set from a BEIR directory")
	}
	repos, err := LoadCodeSet(set, "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(repos) != 2 || repos[0].Name != "alpha" || len(repos[0].Queries) != 2 || len(repos[1].Queries) != 1 {
		t.Fatalf("loaded %d repositories: %+v", len(repos), repos)
	}
	work := t.TempDir()
	o := CodeOptions{Workspace: work, Settings: engine.DefaultSettings(), Modes: []string{engine.ModeBM25}}
	rep, err := RunCode(t.Context(), set, repos, "test", o)
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Modes[0]
	// alpha-1: retry.go first (1). alpha-2: lru.go first of two labels,
	// one of them missing: 1 / (1 + 1/log2 3). beta-1: keys.py and its
	// link; the file itself first or second.
	a2 := 1 / (1 + 1/math.Log2(3))
	if got := m.Repos[0].NDCG10; math.Abs(got-(1+a2)/2) > 1e-9 {
		t.Errorf("alpha: %.4f, want %.4f (queries %+v)", got, (1+a2)/2, m.Queries)
	}
	if b := m.Repos[1].NDCG10; b < 1/math.Log2(3)-1e-9 {
		t.Errorf("beta: %.4f (queries %+v)", b, m.Queries[2])
	}
	wantRepos := (m.Repos[0].NDCG10 + m.Repos[1].NDCG10) / 2
	if math.Abs(m.MeanRepos-wantRepos) > 1e-12 || math.Abs(m.MeanQueries-(1+a2+m.Queries[2].NDCG10)/3) > 1e-12 {
		t.Errorf("means %.4f %.4f", m.MeanRepos, m.MeanQueries)
	}
	if len(m.Categories) != 2 || m.Categories[1].Name != "symbol" || math.Abs(m.Categories[1].NDCG10-a2) > 1e-9 {
		t.Errorf("categories %+v", m.Categories)
	}
	if _, err := os.Stat(filepath.Join(set, "alpha", "tree", ".autorag")); err == nil {
		t.Error("the set's tree was written into")
	}
	if l, err := os.Readlink(filepath.Join(work, "beta", "tree", "link.py")); err != nil || l != "keys.py" {
		t.Errorf("the copy's symlink: %q %v", l, err)
	}
	var sb strings.Builder
	if err := rep.WriteTable(&sb); err != nil || !strings.Contains(sb.String(), "category symbol") {
		t.Errorf("table: %v\n%s", err, sb.String())
	}
}

func TestSyncTree(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "tree")
	write(t, filepath.Join(src, "a", "x.go"), "package a\n")
	write(t, filepath.Join(src, "y.go"), "package y\n")
	if err := SyncTree(src, dst); err != nil {
		t.Fatal(err)
	}
	// A file removed from the source goes; one changed is rewritten; the
	// index directory stays.
	os.Remove(filepath.Join(src, "y.go"))
	write(t, filepath.Join(src, "a", "x.go"), "package b\n")
	write(t, filepath.Join(dst, ".autorag", "keep"), "index")
	if err := SyncTree(src, dst); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "a", "x.go")); string(b) != "package b\n" {
		t.Errorf("x.go = %q", b)
	}
	if _, err := os.Stat(filepath.Join(dst, "y.go")); err == nil {
		t.Error("y.go survived its removal from the source")
	}
	if _, err := os.Stat(filepath.Join(dst, ".autorag", "keep")); err != nil {
		t.Error("the index directory was touched")
	}
	// A file SyncTree did not write is an error, and stays.
	write(t, filepath.Join(dst, "mine.txt"), "not yours")
	if err := SyncTree(src, dst); err == nil || !strings.Contains(err.Error(), "did not write") {
		t.Errorf("foreign file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dst, "mine.txt")); err != nil {
		t.Error("a foreign file was removed")
	}
}
