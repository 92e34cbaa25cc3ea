package local

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/fingerprint"
)

// applyParts builds gen from base with the deletes and then the upserts in
// parts of part chunks, each its own batch (and segment), the last one
// Final, as a refresh applies them.
func applyParts(t *testing.T, st Storage, base, gen string, deletes []string, upserts []*backend.Chunk, part int) {
	t.Helper()
	ctx := context.Background()
	if err := os.MkdirAll(st.GenDir(gen), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := st.Begin(ctx, base, gen)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := 0; i == 0 || i < len(upserts); i += part {
		ch := backend.Change{Upserts: upserts[i:min(i+part, len(upserts))], Final: i+part >= len(upserts)}
		if i == 0 {
			ch.Deletes = deletes
		}
		if err := w.Apply(ctx, ch); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
}

// sidecarOf is the sidecar a commit of gen holding c's chunks would write.
func sidecarOf(gen string, c pruneCorpus, multilingual bool) *fingerprint.Sidecar {
	sc := &fingerprint.Sidecar{Generation: gen, Settings: map[string]string{}}
	if multilingual {
		sc.Settings["analyzer"] = analyze.MultiVersion
	}
	for _, ch := range c {
		sc.Counts.Chunks++
		sc.Counts.Tokens += int64(ch.Tokens)
	}
	return sc
}

// rankings is the exhaustive BM25 list (chunk IDs and scores, best first)
// of each query in the generation sc names.
func rankings(t *testing.T, st Storage, sc *fingerprint.Sidecar, queries []string) [][]rank.Hit {
	t.Helper()
	ctx := context.Background()
	state, err := st.Open(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	ls := state.(*State)
	var out [][]rank.Hit
	for _, q := range queries {
		r, err := openReader(ls.idx)
		if err != nil {
			t.Fatal(err)
		}
		s := &searcher{r: r, model: modelOf(sc, 0.9, 0.4), exhaustive: true}
		terms, err := s.queryTerms(ctx, ls, q)
		if err != nil {
			t.Fatal(err)
		}
		hits, err := s.bm25List(ctx, terms, nil, rank.ModeHybrid, 100, 10, 1)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, hits)
	}
	return out
}

// sameRankings fails unless got holds the chunks of want in the same order
// with scores equal within float tolerance, and every score of both is
// positive (a language counted too few chunks gave negative idfs).
func sameRankings(t *testing.T, where string, queries []string, want, got [][]rank.Hit) {
	t.Helper()
	for i, q := range queries {
		if len(want[i]) == 0 {
			t.Fatalf("%s: %q found nothing before", where, q)
		}
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s: %q: %d hits, want %d", where, q, len(got[i]), len(want[i]))
		}
		for j, h := range got[i] {
			w := want[i][j]
			if w.Score <= 0 {
				t.Fatalf("%s: %q rank %d: %s scored %.9f before", where, q, j+1, w.ID, w.Score)
			}
			if h.ID != w.ID || math.Abs(h.Score-w.Score) > 1e-9*w.Score || h.Score <= 0 {
				t.Fatalf("%s: %q rank %d: %s %.9f, want %s %.9f", where, q, j+1, h.ID, h.Score, w.ID, w.Score)
			}
		}
	}
}

// compactCorpus is a random corpus of about 2,000 chunks in a dozen
// segments, then a second generation on it with a tenth of its files
// replaced and some deleted (deleted chunks still in the segments); it
// returns the second generation's corpus.
func compactCorpus(t *testing.T, st Storage) pruneCorpus {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 11))
	c := pruneCorpus{}
	applyParts(t, st, "", "g1", nil, c.addFiles(r, 0, 300, true), 160)
	var deletes []string
	var upserts []*backend.Chunk
	for id, ch := range c {
		switch {
		case strings.HasSuffix(ch.Path, "3.md"):
			deletes = append(deletes, id)
			delete(c, id)
		case strings.HasSuffix(ch.Path, "7.md"):
			deletes = append(deletes, id)
		}
	}
	for i := 7; i < 300; i += 10 { // f…7.md replaced: new text, as many chunks or fewer
		path := fmt.Sprintf("%s/f%04d.md", []string{"a", "b"}[i%2], i)
		for id, ch := range c {
			if ch.Path == path {
				delete(c, id)
			}
		}
	}
	more := pruneCorpus{}
	for _, ch := range more.addFiles(r, 0, 300, true) {
		if strings.HasSuffix(ch.Path, "7.md") {
			c[record.ChunkID(ch.Path, ch.Ord)] = ch
			upserts = append(upserts, ch)
		}
	}
	upserts = append(upserts, c.addFiles(r, 300, 40, true)...)
	applyParts(t, st, "g1", "g2", deletes, upserts, 100)
	return c
}

var compactQueries = []string{"Kinder Wasser", "water die", "river stone", "violet quartz lantern", "people system", "copper harbor meadow signal", "garden window engine light", "quartz"}

// TestCompactKeepsScores compacts a generation of many segments with
// replaced and deleted chunks: every query must rank the same chunks in
// the same order with the same scores before and after.
func TestCompactKeepsScores(t *testing.T) {
	dir := t.TempDir()
	st := Storage{Dir: dir, GenDir: func(gen string) string { return filepath.Join(dir, gen) }}
	c := compactCorpus(t, st)
	before, err := st.Segments("g2")
	if err != nil {
		t.Fatal(err)
	}
	if before.Segments < 3 || before.Deleted == 0 {
		t.Fatalf("the corpus has %+v: want several segments and deleted chunks", before)
	}
	t.Logf("before compaction: %+v, %d live chunks", before, len(c))
	want := rankings(t, st, sidecarOf("g2", c, true), compactQueries)
	if err := os.MkdirAll(st.GenDir("g3"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := st.Compact(context.Background(), "g2", "g3"); err != nil {
		t.Fatal(err)
	}
	after, err := st.Segments("g3")
	if err != nil || after.Segments != 1 || after.Deleted != 0 || after.Docs != len(c) {
		t.Fatalf("compacted: %+v %v, want one segment of %d live chunks", after, err, len(c))
	}
	sameRankings(t, fmt.Sprintf("compacted %+v", before), compactQueries, want, rankings(t, st, sidecarOf("g3", c, true), compactQueries))
}

// oneGerman makes every German chunk but the first English: a language of
// one chunk, whose postings zap encodes in the dictionary ("1-hit"),
// before the English majority in the dictionary's order.
func oneGerman(r *rand.Rand, chunks []*backend.Chunk) {
	first := true
	for _, ch := range chunks {
		if ch.Lang != "de" {
			continue
		}
		if first {
			first = false
			continue
		}
		ch.Lang, ch.Text = analyze.English, ""
		for range 20 + r.IntN(80) {
			ch.Text += pruneWords[r.IntN(len(pruneWords))] + " "
		}
	}
}

// TestFreshMergeKeepsScores merges a fresh build's segments into one at
// its last batch, in the open writer, as 944063f did, in a corpus of one
// German chunk among English ones: its rankings must be those of the same
// build unmerged, and every score positive. The merged segment's
// dictionary counted one English chunk (langCodes), and every English
// term's idf went negative; so did the unmerged build's, whose 13 batches
// the writers' merges (scorch's merger, mergePersisted) left in 4
// segments.
func TestFreshMergeKeepsScores(t *testing.T) {
	ctx := context.Background()
	build := func(merge bool) (Storage, pruneCorpus) {
		dir := t.TempDir()
		st := Storage{Dir: dir, GenDir: func(gen string) string { return filepath.Join(dir, gen) }}
		c := pruneCorpus{}
		r := rand.New(rand.NewPCG(3, 5))
		chunks := c.addFiles(r, 0, 300, true)
		oneGerman(r, chunks)
		if err := os.MkdirAll(st.GenDir("g1"), 0o755); err != nil {
			t.Fatal(err)
		}
		bw, err := st.Begin(ctx, "", "g1")
		if err != nil {
			t.Fatal(err)
		}
		defer bw.Close()
		w := bw.(*writer)
		for i := 0; i < len(chunks); i += 160 {
			if err := w.Apply(ctx, backend.Change{Upserts: chunks[i:min(i+160, len(chunks))], Final: i+160 >= len(chunks)}); err != nil {
				t.Fatal(err)
			}
		}
		if merge {
			if err := mergeToOne(ctx, w.idx); err != nil {
				t.Fatal(err)
			}
			if err := applyBatch(ctx, w.idx, nil, nil, "g1", false); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Finish(ctx); err != nil {
			t.Fatal(err)
		}
		segs, err := st.Segments("g1")
		t.Logf("merge %v: %+v %v", merge, segs, err)
		return st, c
	}
	st, c := build(false)
	want := rankings(t, st, sidecarOf("g1", c, true), compactQueries)
	st, c = build(true)
	sameRankings(t, "fresh merge", compactQueries, want, rankings(t, st, sidecarOf("g1", c, true), compactQueries))
}
