package vector

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestOpenMissing(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "nope"), 8)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open of a missing dir: %v, want fs.ErrNotExist", err)
	}
}

func TestEmptyIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	if st := mustBuild(t, dir, "", 3, []string{"x"}, nil); st.Vectors != 0 || st.Segments != 0 {
		t.Fatalf("stats %+v", st)
	}
	ix := mustOpen(t, dir, 3)
	if ix.Len() != 0 || ix.Dims() != 3 || ix.Search([]float32{1, 0, 0}, 10) != nil {
		t.Fatal("empty index is not empty")
	}
	if err := ix.Verify(); err != nil {
		t.Fatal(err)
	}
}

func TestSearchArguments(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	mustBuild(t, dir, "", 2, nil, []Entry{{ID: "a", Vec: []float32{1, 0}}, {ID: "b", Vec: []float32{0, 1}}})
	ix := mustOpen(t, dir, 2)
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		q []float32
		k int
	}{{[]float32{1, 0}, 0}, {[]float32{1}, 1}, {[]float32{inf, 0}, 1}} {
		if got := ix.Search(tc.q, tc.k); got != nil {
			t.Fatalf("Search(%v, %d) = %v, want nil", tc.q, tc.k, got)
		}
	}
	if got := ix.Search([]float32{1, 0}, 100); len(got) != 2 || got[0].ID != "a" {
		t.Fatalf("k > Len: %v", got)
	}
	ix.Close()
	if ix.Search([]float32{1, 0}, 1) != nil || ix.Close() != nil {
		t.Fatal("Search after Close returned hits or double Close failed")
	}
}

// TestTiesByID puts identical vectors in different segments and rows; the
// order must be by ID ascending, including at the top-k boundary.
func TestTiesByID(t *testing.T) {
	root := t.TempDir()
	v := []float32{0.6, 0.8}
	var adds []Entry
	for _, id := range []string{"m", "c", "x", "a"} {
		adds = append(adds, Entry{ID: id, Vec: v})
	}
	g0, g1 := filepath.Join(root, "g0"), filepath.Join(root, "g1")
	mustBuild(t, g0, "", 2, nil, adds)
	mustBuild(t, g1, g0, 2, nil, []Entry{{ID: "b", Vec: v}, {ID: "z", Vec: v}})
	ix := mustOpen(t, g1, 2)
	var got []string
	for _, h := range ix.Search(v, 4) {
		got = append(got, h.ID)
	}
	if want := []string{"a", "b", "c", "m"}; !slices.Equal(got, want) {
		t.Fatalf("tie order %v, want %v", got, want)
	}
}

func TestCorruptionDetected(t *testing.T) {
	const dims = 16
	rng := rand.New(rand.NewPCG(5, 6))
	var adds []Entry
	for i := range 100 {
		adds = append(adds, Entry{ID: chunkID("c.txt", i), Vec: randUnit(rng, dims)})
	}
	src := filepath.Join(t.TempDir(), "src")
	mustBuild(t, src, "", dims, nil, adds)
	man, err := readManifest(src, dims)
	if err != nil {
		t.Fatal(err)
	}
	seg := segName(man.segs[0].seq)
	payloadAt := int64(headerSize + 40)
	idsAt := int64(man.segs[0].size - 3)
	tests := []struct {
		name   string
		file   string
		off    int64 // byte to flip; -1 truncates by one byte
		open   bool  // Open must still succeed (payload corruption): Verify must fail
		wantIs error
	}{
		{"segment magic", seg, 0, false, errCorrupt},
		{"segment version", seg, 8, false, errCorrupt},
		{"segment dims", seg, 12, false, nil},
		{"segment count", seg, 16, false, errCorrupt},
		{"segment header checksum field", seg, 60, false, errCorrupt},
		{"segment ID bytes", seg, idsAt, false, errCorrupt},
		{"segment truncated", seg, -1, false, errCorrupt},
		{"manifest magic", manifestName, 0, false, errCorrupt},
		{"manifest body", manifestName, 30, false, errCorrupt},
		{"manifest truncated", manifestName, -1, false, errCorrupt},
		{"payload", seg, payloadAt, true, errCorrupt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "g")
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, tc.file)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if tc.off < 0 {
				b = b[:len(b)-1]
			} else {
				b[tc.off] ^= 0x40
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			ix, err := Open(dir, dims)
			if tc.open {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				defer ix.Close()
				err = ix.Verify()
			} else if err == nil {
				ix.Close()
				t.Fatal("Open succeeded on a corrupt index")
			}
			if err == nil || (tc.wantIs != nil && !errors.Is(err, tc.wantIs)) {
				t.Fatalf("error %v, want %v", err, tc.wantIs)
			}
		})
	}
}

func TestWrongDims(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g")
	mustBuild(t, dir, "", 4, nil, []Entry{{ID: "a", Vec: []float32{1, 0, 0, 0}}})
	if _, err := Open(dir, 5); err == nil {
		t.Fatal("Open with wrong dims succeeded")
	}
}

// TestConcurrentSearch runs searches from several goroutines over an index
// large enough to take the parallel path, against serial brute force.
func TestConcurrentSearch(t *testing.T) {
	const dims, n = 384, 6000 // 2.3M floats: above parallelMinFloats
	rng := rand.New(rand.NewPCG(7, 8))
	m := model{}
	var ids []string
	for i := range n {
		id := chunkID(fmt.Sprintf("p%d", i%300), i)
		m[id] = randUnit(rng, dims)
		ids = append(ids, id)
	}
	root := t.TempDir()
	g0, g1 := filepath.Join(root, "g0"), filepath.Join(root, "g1")
	mustBuild(t, g0, "", dims, nil, m.entries(ids[:5000]))
	mustBuild(t, g1, g0, dims, ids[:100], m.entries(ids[5000:]))
	for _, id := range ids[:100] {
		delete(m, id)
	}
	ix := mustOpen(t, g1, dims)
	qs := make([][]float32, 8)
	want := make([][]Hit, len(qs))
	for i := range qs {
		qs[i] = randUnit(rng, dims)
		want[i] = m.search(qs[i], 10)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range qs {
				j := (i + g) % len(qs)
				if got := ix.Search(qs[j], 10); !slices.Equal(got, want[j]) {
					t.Errorf("query %d: got %v want %v", j, got, want[j])
				}
			}
		})
	}
	wg.Wait()
}
