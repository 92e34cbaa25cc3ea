package engine

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/embed/static"
)

// TestTopKIsPrefix checks, on a real generation of the repository's test
// corpus (code, docs, configuration), that for random queries the answer
// to -k N is exactly the first N results of -k M for M > N, in every mode,
// with one and two results per file, with and without collapse and a
// path filter; and that asking again gives the same answer.
func TestTopKIsPrefix(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "testdata", "corpus"))); err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings()
	s.Embedder = static.New()
	e, err := New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Refresh(t.Context(), RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	g, err := e.OpenCommitted()
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	words := corpusWords(t, root)
	rng := rand.New(rand.NewPCG(33, 1))
	for i := range 60 {
		var q []string
		for range 1 + rng.IntN(4) {
			q = append(q, words[rng.IntN(len(words))])
		}
		o := QueryOptions{Text: strings.Join(q, " "), Mode: []string{ModeBM25, ModeHybrid, ModeVector}[i%3],
			PerFile: 1 + i%2, NoCollapse: i%4 == 1}
		if i%5 == 2 {
			o.PathGlob = "docs/**"
		}
		checkPrefix(t, e, g, o)
	}
}

func checkPrefix(t *testing.T, e *Engine, g *Generation, o QueryOptions) {
	t.Helper()
	ask := func(k int) []string {
		o.K = k
		res, err := e.Search(t.Context(), g, o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		out := make([]string, len(res.Results))
		for i, r := range res.Results {
			out[i] = fmt.Sprintf("%s#%d %.9g %v", r.Path, r.Chunk, r.Score, r.AlsoIn)
		}
		return out
	}
	long := ask(100)
	if again := ask(100); !slices.Equal(long, again) {
		t.Errorf("%q %s per-file %d: two runs differ:\n%q\n%q", o.Text, o.Mode, o.PerFile, long, again)
	}
	// Past FetchK the lists go deeper: the ranking still does not move.
	if deeper := ask(FetchK + 50); !slices.Equal(deeper[:min(len(long), len(deeper))], long) {
		t.Errorf("%q %s per-file %d: -k 100 is not the first 100 of -k %d:\n%q\n%q", o.Text, o.Mode, o.PerFile, FetchK+50, long, deeper)
	}
	for _, n := range []int{1, 3, 5, 10, 20} {
		short := ask(n)
		if want := long[:min(n, len(long))]; !slices.Equal(short, want) {
			t.Errorf("%q %s per-file %d collapse %v path %q: -k %d is not the first %d of -k 100:\n got %q\nwant %q",
				o.Text, o.Mode, o.PerFile, !o.NoCollapse, o.PathGlob, n, n, short, want)
			return
		}
	}
}

// corpusWords are the distinct words of the corpus's text files, sorted.
func corpusWords(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	re := regexp.MustCompile(`[A-Za-z][A-Za-z_]{3,}`)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, ".autorag") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, w := range re.FindAllString(string(b), -1) {
			seen[w] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(seen))
	for w := range seen {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}
