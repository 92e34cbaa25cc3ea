package vector

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// BenchmarkScan compares the exact float32 scan with the 4-bit scan and its
// rescoring at 384 dims, k = 50 (the depth a hybrid query asks of the dense
// list), with no filter and with a path filter that admits a tenth of the
// chunks. Vectors are random (latency does not depend on their shape; recall
// does: BenchmarkRecall). rss-MB is the process's resident set after the
// runs: the mapped pages the scan touched plus the test's own heap.
func BenchmarkScan(b *testing.B) {
	const dims, k = 384, 50
	for _, n := range []int{5_000, 10_000, 20_000, 50_000, 300_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ix, err := Open(benchIndex(b, n, dims), dims)
			if err != nil {
				b.Fatal(err)
			}
			defer ix.Close()
			qs := make([][]float32, 16)
			rng := rand.New(rand.NewPCG(1, 1))
			for i := range qs {
				qs[i] = randUnit(rng, dims)
			}
			tenth := func(id string) bool {
				return bytes.HasPrefix([]byte(id), []byte("src/pkg1")) && len(id) > 8 && id[8] == '/'
			}
			for _, c := range []struct {
				name   string
				scan   Scan
				accept func(string) bool
			}{
				{"exact", ScanExact, nil}, {"int4", ScanInt4, nil},
				{"exact/filter", ScanExact, tenth}, {"int4/filter", ScanInt4, tenth},
			} {
				b.Run("scan="+c.name, func(b *testing.B) {
					for _, q := range qs { // fault the mapping in
						ix.SearchQuery(Query{Vec: q, K: k, Scan: c.scan, Accept: c.accept})
					}
					i := 0
					for b.Loop() {
						ix.SearchQuery(Query{Vec: qs[i%len(qs)], K: k, Scan: c.scan, Accept: c.accept})
						i++
					}
					b.ReportMetric(mappedMB(), "mapped-MB")
				})
			}
		})
	}
}

// mappedMB sums the resident size of this process's mappings of segment
// files, from /proc/self/smaps.
func mappedMB() float64 {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return 0
	}
	var kb float64
	inSeg := false
	for _, line := range bytes.Split(b, []byte("\n")) {
		f := bytes.Fields(line)
		switch {
		case len(f) >= 6 && bytes.Contains(f[0], []byte("-")):
			inSeg = bytes.HasSuffix(f[len(f)-1], []byte(".vec"))
		case inSeg && len(f) >= 2 && string(f[0]) == "Rss:":
			v, _ := strconv.ParseFloat(string(f[1]), 64)
			kb += v
		}
	}
	return kb / 1024
}

// BenchmarkBuildFresh measures writing one segment of n 384-d vectors:
// floats, codes and IDs, fsynced.
func BenchmarkBuildFresh(b *testing.B) {
	const dims = 384
	for _, n := range []int{100_000, 300_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(5, 5))
			adds := make([]Entry, n)
			for i := range adds {
				adds[i] = Entry{ID: chunkID(fmt.Sprintf("src/pkg%d/file%d.go", i%100, i%5000), i), Vec: randUnit(rng, dims)}
			}
			root := b.TempDir()
			b.SetBytes(int64(n * dims * 4))
			i := 0
			for b.Loop() {
				i++
				dir := fmt.Sprintf("%s/%d", root, i)
				if _, err := Build(dir, "", dims, nil, adds); err != nil {
					b.Fatal(err)
				}
				os.RemoveAll(dir)
			}
		})
	}
}

// BenchmarkRecall reports recall@10 and @50 of the 4-bit scan against the
// exact scan per candidate count on clustered 384-d vectors (clustered).
func BenchmarkRecall(b *testing.B) {
	const dims = 384
	data, queries := clustered(2, 100_000, 100, dims)
	ix := buildClustered(b, data, dims, 1)
	exact := exactLists(ix, queries, 50)
	for _, n := range []int{50, 100, 200, 500, 1000} {
		b.Run(fmt.Sprintf("scan=int4/candidates=%d", n), func(b *testing.B) {
			for b.Loop() {
				b.ReportMetric(recallAt(ix, queries, exact, ScanInt4, 10, n), "recall@10")
				b.ReportMetric(recallAt(ix, queries, exact, ScanInt4, 50, max(n, 50)), "recall@50")
			}
		})
	}
}
