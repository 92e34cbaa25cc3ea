package vector

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestBuildFreshMatchesBruteForce(t *testing.T) {
	for _, dims := range []int{1, 7, 100, 384} {
		for _, n := range []int{0, 1, 37, 1500} {
			t.Run(fmt.Sprintf("dims%d_n%d", dims, n), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(dims), uint64(n)))
				m := model{}
				var ids []string
				for i := range n {
					id := chunkID(fmt.Sprintf("doc%03d.md", i%97), i)
					m[id] = randUnit(rng, dims)
					ids = append(ids, id)
				}
				dir := filepath.Join(t.TempDir(), "g1")
				st := mustBuild(t, dir, "", dims, nil, m.entries(ids))
				if st.Vectors != n {
					t.Fatalf("Stats.Vectors = %d, want %d", st.Vectors, n)
				}
				ix := mustOpen(t, dir, dims)
				checkSearch(t, ix, m, rng, 5)
				if err := ix.Verify(); err != nil {
					t.Fatal(err)
				}
				if got := ix.Stats(); got != st {
					t.Fatalf("Index.Stats = %+v, Build returned %+v", got, st)
				}
			})
		}
	}
}

// fileState is what must not change in an old generation.
type fileState struct {
	sum   [32]byte
	size  int64
	mtime int64
	ino   uint64
}

func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]fileState{}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = fileState{sha256.Sum256(b), fi.Size(), fi.ModTime().UnixNano(), fi.Sys().(*syscall.Stat_t).Ino}
	}
	return out
}

// TestIncrementalGenerations applies random change sets over many generations
// and checks each against brute force, against a fresh build of the same
// contents, and that no older generation's files changed.
func TestIncrementalGenerations(t *testing.T) {
	const dims = 24
	rng := rand.New(rand.NewPCG(1, 2))
	root := t.TempDir()
	m := model{}
	next := 0
	var gens []string
	snaps := map[string]map[string]fileState{}
	base := ""
	sawCompaction, sawMultiSeg := false, false
	for g := range 40 {
		var deletes []string
		var adds []Entry
		live := slices.Sorted(maps.Keys(m))
		rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
		nDel := 0
		if len(live) > 0 {
			nDel = rng.IntN(len(live)/8 + 2)
		}
		for i, id := range live[:min(nDel, len(live))] {
			deletes = append(deletes, id)
			if i%3 == 0 { // an edited chunk: delete and re-add the same ID
				v := randUnit(rng, dims)
				adds = append(adds, Entry{ID: id, Vec: v})
				m[id] = v
			} else {
				delete(m, id)
			}
		}
		deletes = append(deletes, "never\x00existed")
		nAdd := rng.IntN(60)
		if g == 0 {
			nAdd = 500
		}
		for range nAdd {
			id := chunkID(fmt.Sprintf("f%d.go", next%50), next)
			next++
			v := randUnit(rng, dims)
			adds = append(adds, Entry{ID: id, Vec: v})
			m[id] = v
		}
		dir := filepath.Join(root, fmt.Sprintf("gen%03d", g))
		st := mustBuild(t, dir, base, dims, deletes, adds)
		if st.Vectors != len(m) || st.Segments > maxSegments {
			t.Fatalf("gen %d: stats %+v, want %d vectors and <= %d segments", g, st, len(m), maxSegments)
		}
		man, err := readManifest(dir, dims)
		if err != nil {
			t.Fatal(err)
		}
		rows, tombs := 0, 0
		for _, s := range man.segs {
			rows += int(s.count)
			tombs += len(s.tombs)
		}
		if tombs*compactTombstones > rows {
			t.Fatalf("gen %d: %d tombstones of %d rows survived the build", g, tombs, rows)
		}
		sawMultiSeg = sawMultiSeg || len(man.segs) > 1
		sawCompaction = sawCompaction || (g > 0 && len(man.segs) == 1 && tombs == 0)

		ix := mustOpen(t, dir, dims)
		checkSearch(t, ix, m, rng, 3)

		fresh := filepath.Join(root, fmt.Sprintf("fresh%03d", g))
		mustBuild(t, fresh, "", dims, nil, m.entries(slices.Collect(maps.Keys(m))))
		fx := mustOpen(t, fresh, dims)
		for range 3 {
			q := randUnit(rng, dims)
			if a, b := ix.Search(q, 15), fx.Search(q, 15); !slices.Equal(a, b) {
				t.Fatalf("gen %d: incremental and fresh differ:\n%v\n%v", g, a, b)
			}
		}

		snaps[dir] = snapshot(t, dir)
		for _, old := range gens {
			if got := snapshot(t, old); !maps.Equal(got, snaps[old]) {
				t.Fatalf("gen %d: building it changed older generation %s", g, old)
			}
		}
		gens = append(gens, dir)
		base = dir
	}
	if !sawCompaction || !sawMultiSeg {
		t.Fatalf("policy not exercised: compaction %v, multiple segments %v", sawCompaction, sawMultiSeg)
	}
}

func TestCompactionPolicy(t *testing.T) {
	const dims = 8
	rng := rand.New(rand.NewPCG(3, 4))
	root := t.TempDir()
	m := model{}
	var ids []string
	for i := range 1000 {
		id := chunkID("big.txt", i)
		ids = append(ids, id)
		m[id] = randUnit(rng, dims)
	}
	g0 := filepath.Join(root, "g0")
	mustBuild(t, g0, "", dims, nil, m.entries(ids))

	// A small add is linked next to the big segment, not merged into it.
	g1 := filepath.Join(root, "g1")
	small := Entry{ID: "small\x000", Vec: randUnit(rng, dims)}
	m[small.ID] = small.Vec
	if st := mustBuild(t, g1, g0, dims, ids[:10], []Entry{small}); st.Segments != 2 {
		t.Fatalf("small change: %d segments, want 2", st.Segments)
	}
	for _, id := range ids[:10] {
		delete(m, id)
	}
	// 10 tombstones of 1001 rows: still linked.
	if st := mustBuild(t, filepath.Join(root, "g2"), g1, dims, nil, nil); st.Segments != 2 {
		t.Fatalf("no-op build: %d segments, want 2", st.Segments)
	}
	// Past 20% tombstones: one segment, no tombstones.
	g3 := filepath.Join(root, "g3")
	for _, id := range ids[10:300] {
		delete(m, id)
	}
	st := mustBuild(t, g3, filepath.Join(root, "g2"), dims, ids[10:300], nil)
	man, err := readManifest(g3, dims)
	if err != nil {
		t.Fatal(err)
	}
	if st.Segments != 1 || len(man.segs[0].tombs) != 0 || st.Vectors != len(m) {
		t.Fatalf("after 30%% deletes: %+v, tombstones %d", st, len(man.segs[0].tombs))
	}
	checkSearch(t, mustOpen(t, g3, dims), m, rng, 3)

	// Many one-vector generations: the segment count stays capped and small
	// segments merge among themselves, never rewriting the big one.
	base := g3
	bigSeq := man.segs[0].seq
	for g := range 30 {
		dir := filepath.Join(root, fmt.Sprintf("s%02d", g))
		e := Entry{ID: chunkID("tiny", g), Vec: randUnit(rng, dims)}
		m[e.ID] = e.Vec
		st := mustBuild(t, dir, base, dims, nil, []Entry{e})
		if st.Segments > maxSegments {
			t.Fatalf("gen %d: %d segments", g, st.Segments)
		}
		man, err := readManifest(dir, dims)
		if err != nil {
			t.Fatal(err)
		}
		if man.segs[0].seq != bigSeq {
			t.Fatalf("gen %d: the big segment was rewritten by a one-vector change", g)
		}
		base = dir
	}
	checkSearch(t, mustOpen(t, base, dims), m, rng, 3)
}

func TestEditInSameBuild(t *testing.T) {
	const dims = 4
	root := t.TempDir()
	g0, g1 := filepath.Join(root, "g0"), filepath.Join(root, "g1")
	id := chunkID("a.md", 0)
	mustBuild(t, g0, "", dims, nil, []Entry{{ID: id, Vec: []float32{1, 0, 0, 0}}, {ID: "b", Vec: []float32{0, 1, 0, 0}}})
	mustBuild(t, g1, g0, dims, []string{id}, []Entry{{ID: id, Vec: []float32{0, 0, 1, 0}}})
	ix := mustOpen(t, g1, dims)
	if ix.Len() != 2 {
		t.Fatalf("Len = %d, want 2", ix.Len())
	}
	got := ix.Search([]float32{0, 0, 1, 0}, 1)
	if len(got) != 1 || got[0].ID != id || got[0].Score != 1 {
		t.Fatalf("edited vector not found: %v", got)
	}
	if got := ix.Search([]float32{1, 0, 0, 0}, 3); got[0].Score != 0 {
		t.Fatalf("old vector still live: %v", got)
	}
	old := mustOpen(t, g0, dims)
	if got := old.Search([]float32{1, 0, 0, 0}, 1); got[0].ID != id || got[0].Score != 1 {
		t.Fatalf("old generation changed: %v", got)
	}
}

func TestBuildErrors(t *testing.T) {
	root := t.TempDir()
	g0 := filepath.Join(root, "g0")
	mustBuild(t, g0, "", 4, nil, []Entry{{ID: "a", Vec: []float32{1, 0, 0, 0}}})
	nonEmpty := filepath.Join(root, "full")
	os.Mkdir(nonEmpty, 0o755)
	os.WriteFile(filepath.Join(nonEmpty, "x"), nil, 0o644)
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	nan := float32(0)
	nan = nan / nan
	tests := []struct {
		name    string
		dir     string
		base    string
		dims    int
		adds    []Entry
		deletes []string
		want    string
	}{
		{"dims mismatch with base", "d1", g0, 5, nil, nil, "dims"},
		{"add of wrong length", "d2", "", 4, []Entry{{ID: "x", Vec: []float32{1}}}, nil, "dims"},
		{"duplicate add", "d3", "", 4, []Entry{{ID: "x", Vec: []float32{1, 0, 0, 0}}, {ID: "x", Vec: []float32{0, 1, 0, 0}}}, nil, "twice"},
		{"add of live id", "d4", g0, 4, []Entry{{ID: "a", Vec: []float32{0, 1, 0, 0}}}, nil, "already live"},
		{"non-finite", "d5", "", 4, []Entry{{ID: "x", Vec: []float32{nan, 0, 0, 0}}}, nil, "NaN"},
		{"non-empty dir", nonEmpty, "", 4, nil, nil, "not empty"},
		{"missing base", "d6", filepath.Join(root, "nope"), 4, nil, nil, "no such file"},
		{"zero dims", "d7", "", 0, nil, nil, "dims"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(root, dir)
			}
			_, err := Build(dir, tc.base, tc.dims, tc.deletes, tc.adds)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Build error = %v, want one containing %q", err, tc.want)
			}
			if ents, _ := os.ReadDir(dir); dir != nonEmpty && len(ents) != 0 {
				t.Fatalf("failed Build left files: %v", ents)
			}
		})
	}
	// An existing empty dir is accepted.
	mustBuild(t, empty, g0, 4, []string{"a"}, nil)
	if ix := mustOpen(t, empty, 4); ix.Len() != 0 || ix.Search([]float32{1, 0, 0, 0}, 5) != nil {
		t.Fatal("index with everything deleted is not empty")
	}
}
