package local

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/fingerprint"
)

// TestDefsStoredWithTheHit: a chunk's definitions come back with its
// stored fields, in order, and a chunk without any has none.
func TestDefsStoredWithTheHit(t *testing.T) {
	ctx := context.Background()
	s := testStorage(t)
	defs := []backend.ChunkDef{{Name: "TypeAdapter", Kind: "class", Line: 4}, {Name: "validate_python", Kind: "method", Line: 7}}
	chunks := []*backend.Chunk{
		{Path: "a.py", Ord: 0, StartLine: 1, EndLine: 9, Text: "class TypeAdapter:\n    def validate_python(self): pass", Defs: defs},
		{Path: "b.md", Ord: 0, StartLine: 1, EndLine: 1, Text: "a duck paddles across the pond"},
	}
	sc := write(t, s, "000000001", chunks, [][]float32{{1, 0}, {0, 1}})
	st, err := s.Open(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ls, err := st.Query(ctx, backend.Query{Text: "adapter", Mode: rank.ModeBM25, K: 10, PerFile: 1, Want: 50, K1: 0.9, B: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	load, err := ls.Materialize(ctx, nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	r, err := load("a.py\x000", "a.py", 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(defs, r.Defs); diff != "" {
		t.Fatalf("defs of a.py#0 (-want +got):\n%s", diff)
	}
	if r, err := load("b.md\x000", "b.md", 0); err != nil || r.Defs != nil {
		t.Fatalf("defs of b.md#0: %v %v, want none", r.Defs, err)
	}
}

// TestDefsFieldIndexesMatchKeys: the defs field indexes each name once,
// by its match key, so the spellings of one identifier meet.
func TestDefsFieldIndexesMatchKeys(t *testing.T) {
	f := defsField([]backend.ChunkDef{
		{Name: "TypeAdapter", Kind: "class", Line: 1}, {Name: "type_adapter", Kind: "function", Line: 9},
		{Name: "typeAdapter", Kind: "variable", Line: 12}, {Name: "include_router", Kind: "function", Line: 20},
	})
	var got []string
	for _, tok := range (defsAnalyzer{}).Analyze(f.Value()) {
		got = append(got, string(tok.Term))
	}
	if diff := cmp.Diff([]string{"typeadapter", "includerouter"}, got); diff != "" {
		t.Fatalf("indexed terms (-want +got):\n%s", diff)
	}
	if n := len(parseDefs(string(f.Value()))); n != 4 {
		t.Fatalf("stored value holds %d definitions, want 4", n)
	}
}

// TestDefsOfReadsWhatLoadReads: the definitions and section DefsOf reads
// of each chunk are those of its whole stored fields, on a generation of
// several segments with deleted documents, for chunks the lexical list
// resolved and for others.
func TestDefsOfReadsWhatLoadReads(t *testing.T) {
	ctx := context.Background()
	s := testStorage(t)
	s.EmbedderID, s.Dims = "", 0 // BM25 only
	const files = 2500
	chunk := func(i, edit int) *backend.Chunk {
		c := &backend.Chunk{Path: fmt.Sprintf("f%d.go", i), StartLine: 1, EndLine: 3,
			Section: fmt.Sprintf("func (s *Store) Get%d", edit), Text: fmt.Sprintf("heron %d edit %d", i, edit)}
		if i%2 == 0 {
			c.Defs = []backend.ChunkDef{{Name: fmt.Sprintf("Heron%d_%d", i, edit), Kind: "function", Line: 2}}
		}
		return c
	}
	var chunks []*backend.Chunk
	for i := range files {
		chunks = append(chunks, chunk(i, 0))
	}
	write(t, s, "000000001", chunks, nil)
	gen := "000000001"
	for e := 1; e <= 6; e++ {
		base := gen
		gen = fmt.Sprintf("%09d", e+1)
		edit(t, s, base, gen, chunk(e%files, e))
	}
	st, err := s.Open(&fingerprint.Sidecar{Generation: gen, Settings: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if segs, err := listedSegments(filepath.Join(s.GenDir(gen), bleveDir), gen); err != nil || len(segs) < 2 {
		t.Fatalf("segments %v %v: the test wants several", segs, err)
	}
	ls, err := st.Query(ctx, backend.Query{Text: "heron 3", Mode: rank.ModeBM25, K: 2, PerFile: 1, Want: 10, K1: 0.9, B: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	if _, _, err := ls.Lexical(ctx); err != nil {
		t.Fatal(err)
	}
	load, _ := ls.Materialize(ctx, nil, files)
	of, err := ls.(backend.DefReader).DefsOf(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		id := record.ChunkID(fmt.Sprintf("f%d.go", i), 0)
		want, err := load(id, fmt.Sprintf("f%d.go", i), 0)
		if err != nil {
			t.Fatal(err)
		}
		defs, section, err := of(id, fmt.Sprintf("f%d.go", i), 0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.Defs, defs); diff != "" || section != want.Section || section == "" {
			t.Errorf("%s: section %q, load's %q; defs (-load +DefsOf):\n%s", id, section, want.Section, diff)
		}
	}
}
