package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDotRowsMatchesDot: the block kernel gives, bit for bit, the score
// dot gives each row (so the exact scan's scores, order and ties are
// those of the row-by-row scan), for dimensions below, at and around the
// 32-component step of the kernel, odd row counts and unaligned rows.
func TestDotRowsMatchesDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{1, 2, 7, 31, 32, 33, 63, 64, 100, 256, 257, 384, 768} {
		for _, n := range []int{1, 2, 3, 5, 64, 65} {
			q := randUnit(rng, d)
			// one float of offset: the rows are not 32-byte aligned
			rows := make([]float32, n*d+1)[1:]
			for i := range rows {
				rows[i] = float32(rng.NormFloat64())
			}
			out := make([]float32, n)
			dotRows(q, rows, out)
			for i := range n {
				want := dot(q, rows[i*d:i*d+d])
				if math.Float32bits(out[i]) != math.Float32bits(want) {
					t.Fatalf("d=%d n=%d row %d: %v (%08x), dot %v (%08x)", d, n, i, out[i], math.Float32bits(out[i]), want, math.Float32bits(want))
				}
			}
		}
	}
}

// BenchmarkDotRows scores 10,000 rows of 256 components, one dot call
// per row against one dotRows call per block.
func BenchmarkDotRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const d, n = 256, 10000
	q := randUnit(rng, d)
	rows := make([]float32, n*d)
	for i := range rows {
		rows[i] = float32(rng.NormFloat64())
	}
	out := make([]float32, n)
	b.Run("dot", func(b *testing.B) {
		for b.Loop() {
			for i := range n {
				out[i] = dot(q, rows[i*d:i*d+d])
			}
		}
	})
	b.Run("dotRows", func(b *testing.B) {
		for b.Loop() {
			for i := 0; i < n; i += scanBlock {
				m := min(scanBlock, n-i)
				dotRows(q, rows[i*d:(i+m)*d], out[i:i+m])
			}
		}
	})
}
