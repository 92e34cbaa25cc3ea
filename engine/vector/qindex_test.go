package vector

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// qdims exercises code padding (96 dims, a 128-byte stride).
const qdims = 96

// checkQuantized compares the 4-bit scan of ix with the exact model m: every
// hit is live with its exact score, none passes a rejected ID, and at least
// 99% of the model's top k are found.
func checkQuantized(t *testing.T, ix *Index, m model, rng *rand.Rand, accept func(string) bool) {
	t.Helper()
	if ix.Len() < quantMinLive {
		t.Fatalf("%d live vectors: the 4-bit scan is not used below %d", ix.Len(), quantMinLive)
	}
	filtered := m
	if accept != nil {
		filtered = model{}
		for id, v := range m {
			if accept(id) {
				filtered[id] = v
			}
		}
	}
	found, total := 0, 0
	for range 20 {
		q := randUnit(rng, ix.Dims())
		want := filtered.search(q, 10)
		got := ix.SearchQuery(Query{Vec: q, K: 10, Accept: accept})
		if len(got) != len(want) {
			t.Fatalf("%d hits, want %d", len(got), len(want))
		}
		byID := map[string]float32{}
		for _, h := range got {
			v, ok := filtered[h.ID]
			if !ok {
				t.Fatalf("hit %q is deleted or filtered out", h.ID)
			}
			if s := dot(q, v); s != h.Score {
				t.Fatalf("hit %q: score %g, exact %g", h.ID, h.Score, s)
			}
			byID[h.ID] = h.Score
		}
		for _, h := range want {
			if _, ok := byID[h.ID]; ok {
				found++
			}
		}
		total += len(want)
		if !slices.IsSortedFunc(got, func(a, b Hit) int { return -cmpHit(a, b) }) {
			t.Fatalf("hits out of order: %v", got)
		}
	}
	if r := float64(found) / float64(total); r < 0.99 {
		t.Fatalf("recall@10 %.3f against the exact scan", r)
	}
}

// cmpHit orders hits worst first: lower score, then larger ID.
func cmpHit(a, b Hit) int {
	if a.Score != b.Score {
		if a.Score < b.Score {
			return -1
		}
		return 1
	}
	return -strings.Compare(a.ID, b.ID)
}

// TestQuantizedIncremental runs the 4-bit scan over generations built
// incrementally (adds, deletes, edits, tail merges) and then compacted.
func TestQuantizedIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	root := t.TempDir()
	m := model{}
	var ids []string
	add := func(n int, prefix string) []Entry {
		var es []Entry
		for i := range n {
			e := Entry{ID: chunkID(fmt.Sprintf("%s/f%05d", prefix, i/3), i%3), Vec: randUnit(rng, qdims)}
			m[e.ID] = e.Vec
			ids = append(ids, e.ID)
			es = append(es, e)
		}
		return es
	}
	g0 := filepath.Join(root, "g0")
	mustBuild(t, g0, "", qdims, nil, add(quantMinLive, "a"))
	checkQuantized(t, mustOpen(t, g0, qdims), m, rng, nil)

	// Edits (delete plus add of the same ID), deletes and adds.
	var dels []string
	var adds []Entry
	for i := 0; i < 600; i++ {
		id := ids[rng.IntN(len(ids))]
		if _, ok := m[id]; !ok || slices.Contains(dels, id) {
			continue
		}
		dels = append(dels, id)
		if i%2 == 0 {
			v := randUnit(rng, qdims)
			m[id] = v
			adds = append(adds, Entry{ID: id, Vec: v})
		} else {
			delete(m, id)
		}
	}
	adds = append(adds, add(3000, "b")...)
	g1 := filepath.Join(root, "g1")
	if st := mustBuild(t, g1, g0, qdims, dels, adds); st.Segments != 2 {
		t.Fatalf("incremental build: %d segments, want 2", st.Segments)
	}
	checkQuantized(t, mustOpen(t, g1, qdims), m, rng, nil)
	inB := func(id string) bool { return strings.HasPrefix(id, "b/") }
	checkQuantized(t, mustOpen(t, g1, qdims), m, rng, inB)

	// Compaction: one segment, no tombstones, the same answers.
	g2 := filepath.Join(root, "g2")
	st, err := Compact(g2, g1, qdims)
	if err != nil {
		t.Fatal(err)
	}
	man, err := readManifest(g2, qdims)
	if err != nil {
		t.Fatal(err)
	}
	if st.Segments != 1 || st.Tombstones != 0 || len(man.segs[0].tombs) != 0 || st.Vectors != len(m) {
		t.Fatalf("compacted: %+v, %d tombstones, want 1 segment of %d", st, len(man.segs[0].tombs), len(m))
	}
	if before := mustOpen(t, g1, qdims).Stats(); before.Tombstones == 0 {
		t.Fatalf("the generation before compaction has no tombstones: %+v", before)
	}
	c := mustOpen(t, g2, qdims)
	checkQuantized(t, c, m, rng, nil)
	checkQuantized(t, c, m, rng, inB)
	if err := c.Verify(); err != nil {
		t.Fatal(err)
	}

	// Compacting a compact index links its segment.
	g3 := filepath.Join(root, "g3")
	if _, err := Compact(g3, g2, qdims); err != nil {
		t.Fatal(err)
	}
	a, _ := os.Stat(filepath.Join(g2, segName(man.segs[0].seq)))
	b, err := os.Stat(filepath.Join(g3, segName(man.segs[0].seq)))
	if err != nil || !os.SameFile(a, b) {
		t.Fatalf("compact of a compact index rewrote its segment (%v)", err)
	}
}

// TestCompactDropsTombstonesOfOneSegment: a lone segment with tombstones
// is rewritten by Compact (Build would link it).
func TestCompactDropsTombstonesOfOneSegment(t *testing.T) {
	const dims = 8
	rng := rand.New(rand.NewPCG(5, 6))
	root := t.TempDir()
	m := model{}
	var es []Entry
	for i := range 100 {
		e := Entry{ID: chunkID("x", i), Vec: randUnit(rng, dims)}
		m[e.ID] = e.Vec
		es = append(es, e)
	}
	g0, g1, g2 := filepath.Join(root, "g0"), filepath.Join(root, "g1"), filepath.Join(root, "g2")
	mustBuild(t, g0, "", dims, nil, es)
	mustBuild(t, g1, g0, dims, []string{es[0].ID, es[1].ID}, nil)
	delete(m, es[0].ID)
	delete(m, es[1].ID)
	st, err := Compact(g2, g1, dims)
	if err != nil {
		t.Fatal(err)
	}
	man, err := readManifest(g2, dims)
	if err != nil {
		t.Fatal(err)
	}
	if st.Segments != 1 || len(man.segs[0].tombs) != 0 || man.segs[0].count != 98 {
		t.Fatalf("compacted: %+v, segment %+v", st, man.segs[0])
	}
	checkSearch(t, mustOpen(t, g2, dims), m, rng, 3)
}

// TestMappedSegmentsOutliveTheirGeneration: a reader keeps searching a
// generation after the next one was built from it by hard links and the
// old directory was collected, as the engine's garbage collection does;
// the new generation opens and searches on its own.
func TestMappedSegmentsOutliveTheirGeneration(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	root := t.TempDir()
	m := model{}
	var es []Entry
	for i := range quantMinLive + 100 {
		e := Entry{ID: chunkID(fmt.Sprintf("p%05d", i/3), i%3), Vec: randUnit(rng, qdims)}
		m[e.ID] = e.Vec
		es = append(es, e)
	}
	g0, g1 := filepath.Join(root, "g0"), filepath.Join(root, "g1")
	mustBuild(t, g0, "", qdims, nil, es)
	old := mustOpen(t, g0, qdims)
	next := Entry{ID: "new\x000", Vec: randUnit(rng, qdims)}
	mustBuild(t, g1, g0, qdims, []string{es[0].ID}, []Entry{next})
	if err := os.RemoveAll(g0); err != nil {
		t.Fatal(err)
	}
	checkQuantized(t, old, m, rng, nil) // the old view: es[0] live, next absent
	if _, ok := old.Vector(next.ID); ok {
		t.Fatal("the old generation sees a vector added after it")
	}
	delete(m, es[0].ID)
	m[next.ID] = next.Vec
	nix := mustOpen(t, g1, qdims)
	checkQuantized(t, nix, m, rng, nil)
	if got := nix.SearchQuery(Query{Vec: next.Vec, K: 1}); len(got) != 1 || got[0].ID != next.ID {
		t.Fatalf("the added vector is not its own nearest: %v", got)
	}
	if err := nix.Verify(); err != nil {
		t.Fatal(err)
	}
	// Compaction rewrites the segments; once g1 is collected too, no name
	// links the file old maps, and old still answers from it.
	g2 := filepath.Join(root, "g2")
	if _, err := Compact(g2, g1, qdims); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(g1); err != nil {
		t.Fatal(err)
	}
	m[es[0].ID] = es[0].Vec
	delete(m, next.ID)
	checkQuantized(t, old, m, rng, nil)
	if err := old.Verify(); err != nil {
		t.Fatal(err)
	}
}
