package vector

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/viterin/vek/vek32"
)

// benchIndexes caches the indexes benchIndex built, by size, so that
// -count runs build each once; TestMain removes them.
var benchIndexes = map[[2]int]string{}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range benchIndexes {
		os.RemoveAll(filepath.Dir(dir))
	}
	os.Exit(code)
}

// benchIndex builds (once per process) an index of n random unit vectors.
func benchIndex(b *testing.B, n, dims int) string {
	b.Helper()
	if g, ok := benchIndexes[[2]int{n, dims}]; ok {
		return g
	}
	dir, err := os.MkdirTemp("", fmt.Sprintf("vecbench-%d-%d-", n, dims))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(n), uint64(dims)))
	adds := make([]Entry, n)
	flat := make([]float32, n*dims)
	for i := range adds {
		v := flat[i*dims : (i+1)*dims]
		copy(v, randUnit(rng, dims))
		adds[i] = Entry{ID: chunkID(fmt.Sprintf("src/pkg%d/file%d.go", i%100, i%5000), i), Vec: v}
	}
	g := filepath.Join(dir, "g0")
	if _, err := Build(g, "", dims, nil, adds); err != nil {
		os.RemoveAll(dir)
		b.Fatal(err)
	}
	benchIndexes[[2]int{n, dims}] = g
	return g
}

func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct{ n, dims int }{
		{10_000, 100}, {100_000, 100}, {1_000_000, 100},
		{100_000, 384},
		{10_000, 1536}, {100_000, 1536}, {200_000, 1536},
	} {
		b.Run(fmt.Sprintf("n=%d/dims=%d", c.n, c.dims), func(b *testing.B) {
			ix, err := Open(benchIndex(b, c.n, c.dims), c.dims)
			if err != nil {
				b.Fatal(err)
			}
			defer ix.Close()
			q := randUnit(rand.New(rand.NewPCG(1, 1)), c.dims)
			ix.Search(q, 10) // fault the mapping in
			b.SetBytes(int64(c.n * c.dims * 4))
			for b.Loop() {
				ix.Search(q, 10)
			}
		})
	}
}

// BenchmarkMemoryFloor sums a 400 MB float32 slice already in memory: the
// bandwidth floor an exact scan cannot beat. par=2 splits it over 2 goroutines.
func BenchmarkMemoryFloor(b *testing.B) {
	x := make([]float32, 100<<20)
	for i := range x {
		x[i] = float32(i & 7)
	}
	for _, par := range []int{1, 2} {
		b.Run(fmt.Sprintf("par=%d", par), func(b *testing.B) {
			b.SetBytes(int64(len(x) * 4))
			for b.Loop() {
				var wg sync.WaitGroup
				for w := range par {
					part := x[len(x)*w/par : len(x)*(w+1)/par]
					wg.Go(func() { vek32.Sum(part) })
				}
				wg.Wait()
			}
		})
	}
}

func BenchmarkDotKernels(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, dims := range []int{100, 384, 1536} {
		const rows = 4096 // 1.6-25 MB: a scan, not one cached vector
		m := make([]float32, rows*dims)
		for i := range rows {
			copy(m[i*dims:], randUnit(rng, dims))
		}
		q := randUnit(rng, dims)
		for name, f := range map[string]func(a, b []float32) float32{"vek32": dot, "unrolled": dotUnrolled} {
			b.Run(fmt.Sprintf("%s/dims=%d", name, dims), func(b *testing.B) {
				b.SetBytes(int64(len(m) * 4))
				var s float32
				for b.Loop() {
					for r := range rows {
						s += f(q, m[r*dims:(r+1)*dims])
					}
				}
				_ = s
			})
		}
	}
}

// BenchmarkIncrementalBuild measures a generation that changes one file
// (3 chunks deleted and re-added) over a large base.
func BenchmarkIncrementalBuild(b *testing.B) {
	for _, c := range []struct{ n, dims int }{{100_000, 384}, {1_000_000, 100}} {
		b.Run(fmt.Sprintf("n=%d/dims=%d", c.n, c.dims), func(b *testing.B) {
			base := benchIndex(b, c.n, c.dims)
			rng := rand.New(rand.NewPCG(3, 3))
			var dels []string
			var adds []Entry
			for i := range 3 {
				id := chunkID(fmt.Sprintf("src/pkg%d/file%d.go", i%100, i%5000), i)
				dels = append(dels, id)
				adds = append(adds, Entry{ID: id, Vec: randUnit(rng, c.dims)})
			}
			root := b.TempDir()
			i := 0
			for b.Loop() {
				i++
				if _, err := Build(filepath.Join(root, fmt.Sprint(i)), base, c.dims, dels, adds); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkOpen(b *testing.B) {
	for _, c := range []struct{ n, dims int }{{100_000, 384}, {1_000_000, 100}} {
		b.Run(fmt.Sprintf("n=%d/dims=%d", c.n, c.dims), func(b *testing.B) {
			dir := benchIndex(b, c.n, c.dims)
			for b.Loop() {
				ix, err := Open(dir, c.dims)
				if err != nil {
					b.Fatal(err)
				}
				ix.Close()
			}
		})
	}
}

// BenchmarkCompaction measures the full rewrite a Build does once tombstones
// pass 20%: 25% of 100k vectors deleted.
func BenchmarkCompaction(b *testing.B) {
	const n, dims = 100_000, 384
	base := benchIndex(b, n, dims)
	dels := make([]string, 0, n/4)
	for i := range n / 4 {
		dels = append(dels, chunkID(fmt.Sprintf("src/pkg%d/file%d.go", i%100, i%5000), i))
	}
	root := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		st, err := Build(filepath.Join(root, fmt.Sprint(i)), base, dims, dels, nil)
		if err != nil || st.Segments != 1 || st.Vectors != n-n/4 {
			b.Fatal(st, err)
		}
	}
}
