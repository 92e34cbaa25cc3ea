package qgemm

import (
	"math/rand/v2"
	"testing"
)

// TestGroupedMatchesMatMul: MatMulGrouped puts MatMul's values, bit for
// bit, in groups of g columns (rows not a multiple of the tile's, one and
// two panels a group, one and two workers), on every kernel.
func TestGroupedMatchesMatMul(t *testing.T) {
	for _, k := range kernels() {
		with(k, func() {
			r := rand.New(rand.NewPCG(23, 24))
			for _, s := range []struct{ m, k, n, g, workers int }{{13, 32, 96, 32, 1}, {30, 64, 128, 64, 2}, {1, 384, 64, 32, 2}} {
				var q Quant
				Quantize(&q, random(r, s.m*s.k, -2, 3), s.k, s.m, s.k)
				p := NewPanels(s.k, s.n)
				PackInto(p, 0, random(r, s.n*s.k, -1, 1), s.n, 1, s.k, 1)
				bias := random(r, s.n, -1, 1)
				want, got := make([]float32, s.m*s.n), make([]float32, s.m*s.n)
				MatMul(want, s.n, &q, p, bias)
				MatMulGrouped(got, s.g, &q, p, bias, s.workers)
				for i := 0; i < s.m; i++ {
					for c := 0; c < s.n; c++ {
						g := got[c/s.g*s.m*s.g+i*s.g+c%s.g]
						if g != want[i*s.n+c] {
							t.Fatalf("%s %+v: C[%d][%d] = %g grouped, %g", k.name, s, i, c, g, want[i*s.n+c])
						}
					}
				}
			}
		})
	}
}

func TestGroupedRefusesUnevenGroups(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("groups of 48 columns in 96 accepted")
		}
	}()
	var q Quant
	Quantize(&q, make([]float32, 32), 32, 1, 32)
	MatMulGrouped(make([]float32, 96), 48, &q, NewPanels(32, 96), make([]float32, 96), 1)
}
