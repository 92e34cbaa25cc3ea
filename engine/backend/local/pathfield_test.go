package local

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/record"
)

// TestPathField: a file whose text never says the query's words is found
// by its name once the path field weighs, and each hit's Path is the part
// of its score the path words gave (its score less its score without
// them).
func TestPathField(t *testing.T) {
	dir := t.TempDir()
	st := Storage{Dir: dir, GenDir: func(gen string) string { return filepath.Join(dir, gen) }}
	c := pruneCorpus{}
	for _, ch := range []*backend.Chunk{
		{Path: "lib/colors.bash", Text: "RED='\\033[31m' GREEN='\\033[32m' reset the terminal"},
		{Path: "lib/colors.bash", Ord: 1, Text: "tput setaf 4 when the terminal supports it"},
		{Path: "src/UpdateStatement.kt", Text: "class Builder { fun set(column: String) }"},
		{Path: "docs/terminal.md", Text: "The terminal shows color definitions in the prompt."},
		{Path: "lib/log.bash", Text: "log a line to the terminal"},
	} {
		c[record.ChunkID(ch.Path, ch.Ord)] = ch
	}
	var chunks []*backend.Chunk
	for _, ch := range c {
		chunks = append(chunks, ch)
	}
	sc := buildGen(t, st, "", "g1", c, nil, chunks, false)
	state, err := st.Open(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	lexical := func(text string, w float64) map[string]rank.Hit {
		t.Helper()
		l, err := state.Query(context.Background(), backend.Query{Text: text, Mode: rank.ModeBM25, K: 10, PerFile: 2, Want: 50, K1: 0.9, B: 0.4, PathWeight: w, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		hits, n, err := l.Lexical(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if want := len(analyze.Terms(text)); n != want {
			t.Errorf("%q: %d terms, want %d (the body's)", text, n, want)
		}
		out := map[string]rank.Hit{}
		for _, h := range hits {
			out[h.ID] = h
		}
		return out
	}
	update := record.ChunkID("src/UpdateStatement.kt", 0)
	if _, ok := lexical("update statement", 0)[update]; ok {
		t.Fatalf("UpdateStatement.kt found without the path field")
	}
	with := lexical("update statement", 1)
	if h, ok := with[update]; !ok || h.Path <= 0 || h.Path != h.Score {
		t.Fatalf("UpdateStatement.kt by its name: %+v (found %v)", h, ok)
	}
	without, with := lexical("color terminal", 0), lexical("color terminal", 1)
	for id, h := range with {
		if math.Abs(h.Score-h.Path-without[id].Score) > 1e-9 {
			t.Errorf("%s: score %g, path part %g, score without the path field %g", id, h.Score, h.Path, without[id].Score)
		}
		named := map[string]bool{"lib/colors.bash": true, "docs/terminal.md": true}[record.ChunkPath(id)]
		if named != (h.Path > 0) {
			t.Errorf("%s: path part %g", id, h.Path)
		}
	}
	if len(with) != len(without) {
		t.Errorf("color terminal: %d hits with the path field, %d without", len(with), len(without))
	}
}
