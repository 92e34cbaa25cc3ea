package local

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/fingerprint"
)

// testStorage is a local storage in a temporary index directory, with a
// two-dimensional "embedder".
func testStorage(t *testing.T) Storage {
	t.Helper()
	dir := t.TempDir()
	return Storage{Dir: dir, GenDir: func(gen string) string { return filepath.Join(dir, "index", gen) }, EmbedderID: "test/2d/2", Dims: 2}
}

// write builds generation gen from nothing with chunks and their vectors,
// and returns the sidecar a commit would write for it.
func write(t *testing.T, s Storage, gen string, chunks []*backend.Chunk, vecs [][]float32) *fingerprint.Sidecar {
	t.Helper()
	ctx := context.Background()
	if err := os.MkdirAll(s.GenDir(gen), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := s.Begin(ctx, "", gen)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Apply(ctx, backend.Change{Upserts: chunks, Vecs: vecs, Final: true}); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	sc := &fingerprint.Sidecar{Generation: gen, Settings: map[string]string{"embedder": s.EmbedderID}}
	for _, c := range chunks {
		if c.Tokens == 0 {
			t.Fatalf("Apply left the analyzed length of %s#%d unset", c.Path, c.Ord)
		}
		sc.Counts.Chunks++
		sc.Counts.Tokens += int64(c.Tokens)
	}
	return sc
}

// TestStateAnswersWithLists drives the local backend through the seam
// alone: a written generation answers a query with its BM25 list, its
// dense list and the stored fields of the chunks, and a generation opened
// under another name is refused (its stamp).
func TestStateAnswersWithLists(t *testing.T) {
	ctx := context.Background()
	s := testStorage(t)
	chunks := []*backend.Chunk{
		{Path: "a.md", Ord: 0, Title: "Herons", StartLine: 1, EndLine: 3, Text: "the grey heron waits in the reeds"},
		{Path: "b.md", Ord: 0, Title: "Ducks", StartLine: 4, EndLine: 9, Text: "a duck paddles across the pond"},
	}
	sc := write(t, s, "000000001", chunks, [][]float32{{1, 0}, {0, 1}})
	st, err := s.Open(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if reason, err := st.Verify(ctx, sc); reason != "" || err != nil {
		t.Fatalf("verify: %q %v", reason, err)
	}
	ls, err := st.Query(ctx, backend.Query{Text: "heron", Mode: rank.ModeHybrid, K: 10, PerFile: 1, Want: 50, K1: 0.9, B: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	bm, terms, err := ls.Lexical(ctx)
	if err != nil || terms != 1 || len(bm) != 1 || bm[0].ID != "a.md\x000" || bm[0].Score <= 0 {
		t.Fatalf("lexical: %v terms %d err %v; want a.md#0 alone, one term", bm, terms, err)
	}
	de, err := ls.Dense(ctx, []float32{0, 1})
	if err != nil || len(de) != 2 || de[0].ID != "b.md\x000" {
		t.Fatalf("dense: %v %v; want b.md#0 first of both", de, err)
	}
	stored, err := ls.Vectors(ctx, bm)
	if v, ok := stored("a.md\x000"); err != nil || !ok || v[0] != 1 {
		t.Fatalf("stored vector of a.md#0: %v %v %v", v, ok, err)
	}
	load, err := ls.Materialize(ctx, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := load("b.md\x000", "b.md", 0)
	if err != nil || r.Text != chunks[1].Text || r.Title != "Ducks" || r.Lines != [2]int{4, 9} {
		t.Fatalf("load b.md#0: %+v %v", r, err)
	}
	renamed := *sc
	renamed.Generation = "000000002"
	if err := os.Rename(s.GenDir(sc.Generation), s.GenDir(renamed.Generation)); err != nil {
		t.Fatal(err)
	}
	if st2, err := s.Open(&renamed); !errors.Is(err, errStamp) {
		if st2 != nil {
			st2.Close()
		}
		t.Fatalf("open under another name: %v, want the stamp mismatch", err)
	}
}

// TestQueryWithoutVectorsIsAUsageError: a generation opened without the
// configured embedder's vectors serves bm25 queries only.
func TestQueryWithoutVectorsIsAUsageError(t *testing.T) {
	ctx := context.Background()
	s := testStorage(t)
	sc := write(t, s, "000000001", []*backend.Chunk{{Path: "a.md", Text: "heron"}}, [][]float32{{1, 0}})
	s.EmbedderID = "test/other/2" // another embedder: its vectors are not opened
	st, err := s.Open(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Query(ctx, backend.Query{Text: "heron", Mode: rank.ModeVector, K: 1, PerFile: 1, Want: 50}); !errors.Is(err, backend.ErrUsage) {
		t.Fatalf("vector query without vectors: %v, want a usage error", err)
	}
	ls, err := st.Query(ctx, backend.Query{Text: "heron", Mode: rank.ModeBM25, K: 1, PerFile: 1, Want: 50, K1: 0.9, B: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	if bm, _, err := ls.Lexical(ctx); err != nil || len(bm) != 1 {
		t.Fatalf("bm25 list: %v %v", bm, err)
	}
}
