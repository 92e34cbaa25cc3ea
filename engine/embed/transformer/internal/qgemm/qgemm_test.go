package qgemm

import (
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

func random(r *rand.Rand, n int, lo, hi float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = lo + (hi-lo)*r.Float32()
	}
	return s
}

// product quantizes a (m×k) and w (n×k, torch layout) and multiplies them.
func product(a []float32, m, k int, w []float32, n int, bias []float32) []float32 {
	var q Quant
	Quantize(&q, a, k, m, k)
	p := NewPanels(k, n)
	PackInto(p, 0, w, n, 1, k, 1)
	c := make([]float32, m*n)
	MatMul(c, n, &q, p, bias)
	return c
}

// naive is C = A·Wᵀ + bias in float64.
func naive(a []float32, m, k int, w []float32, n int, bias []float32) []float64 {
	c := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			s := float64(bias[j])
			for kk := 0; kk < k; kk++ {
				s += float64(a[i*k+kk]) * float64(w[j*k+kk])
			}
			c[i*n+j] = s
		}
	}
	return c
}

var shapes = []struct{ m, k, n int }{{1, 4, 32}, {12, 32, 32}, {13, 33, 64}, {30, 384, 96}, {7, 1536, 32}}

// TestApproximatesFloat checks the quantized product against the exact one:
// per-row activations and per-column weights in 8 bits keep the relative
// error of a row near 1 %.
func TestApproximatesFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, s := range shapes {
		a, w, bias := random(r, s.m*s.k, -0.5, 2), random(r, s.n*s.k, -1, 1), make([]float32, s.n)
		got := product(a, s.m, s.k, w, s.n, bias)
		want := naive(a, s.m, s.k, w, s.n, bias)
		var num, den float64
		for i := range want {
			num += (float64(got[i]) - want[i]) * (float64(got[i]) - want[i])
			den += want[i] * want[i]
		}
		if rel := math.Sqrt(num / den); rel > 0.02 {
			t.Errorf("%+v: relative error %.4f, want ≤ 0.02", s, rel)
		}
	}
}

// TestPackKeepsInt8Columns: weights that are int8 per column with zero
// point 0 (onnxruntime's quantize_dynamic) are packed back exactly for the
// kernels whose bytes span −127…127 (the AVX2 kernel's span −64…64).
func TestPackKeepsInt8Columns(t *testing.T) {
	for _, k := range kernels() {
		if !k.narrow {
			with(k, func() { checkKeepsInt8Columns(t) })
		}
	}
}

func checkKeepsInt8Columns(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	k, n := 40, 64
	q := make([]int8, k*n)
	scale := random(r, n, 0.001, 0.01)
	w := make([]float32, k*n) // in × out
	for kk := 0; kk < k; kk++ {
		for j := 0; j < n; j++ {
			v := int8(r.IntN(255) - 127)
			if kk == j%k {
				v = 127 // the column's extreme, as symmetric quantization gives
			}
			q[kk*n+j] = v
			w[kk*n+j] = float32(v) * scale[j]
		}
	}
	p := NewPanels(k, n)
	PackInto(p, 0, w, n, n, 1, 1)
	for kk := 0; kk < k; kk++ {
		for j := 0; j < n; j++ {
			if got := p.Data[p.offset(kk, j)]; got != q[kk*n+j] {
				t.Fatalf("B[%d][%d] packed as %d, was %d", kk, j, got, q[kk*n+j])
			}
		}
	}
}

func TestQuantRowAndMinMax(t *testing.T) {
	for _, k := range kernels()[1:] {
		t.Logf("helpers of kernel %s", k.name)
		with(k, func() {
			r := rand.New(rand.NewPCG(7, 8))
			for _, n := range []int{1, 15, 16, 17, 100, 512} {
				x := random(r, n, -3, 5)
				lo, hi := minMax(x)
				wl, wh := minMaxGo(x)
				if lo != wl || hi != wh {
					t.Fatalf("n=%d: minMax %g %g, want %g %g", n, lo, hi, wl, wh)
				}
				got, want := make([]uint8, n), make([]uint8, n)
				inv := 255 / (hi - lo)
				quantRow(got, x, lo+0.5, inv) // values below lo+0.5 saturate to 0
				quantRowGo(want, x, lo+0.5, inv)
				for j := range want {
					if got[j] != want[j] {
						t.Fatalf("n=%d: q[%d] = %d, want %d (x = %g)", n, j, got[j], want[j], x[j])
					}
				}
			}
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The benchmarks' FFN product: m tokens of ffnK values, ffnN outputs.
const ffnK, ffnN = 384, 1536

// ffn returns random activations for m tokens, packed random weights, the
// output and a zero bias.
func ffn(m int) (a []float32, p *Panels, c, bias []float32) {
	r := rand.New(rand.NewPCG(9, 10))
	a, w := random(r, m*ffnK, -1, 1), random(r, ffnN*ffnK, -1, 1)
	p = NewPanels(ffnK, ffnN)
	PackInto(p, 0, w, ffnN, 1, ffnK, 1)
	return a, p, make([]float32, m*ffnN), make([]float32, ffnN)
}

// BenchmarkMatMul: one FFN product at 256 tokens (256 × 384 · 384 × 1536),
// activations quantized inside the loop as the encoder does.
func BenchmarkMatMul(b *testing.B) {
	for _, k := range kernels() {
		b.Run(k.name, func(b *testing.B) { with(k, func() { benchMatMul(b) }) })
	}
}

func benchMatMul(b *testing.B) {
	const m = 256
	a, p, c, bias := ffn(m)
	var q Quant
	cpu0 := cpuTime()
	for b.Loop() {
		Quantize(&q, a, ffnK, m, ffnK)
		MatMul(c, ffnN, &q, p, bias)
	}
	op := float64(2*m*ffnK*ffnN) * float64(b.N)
	b.ReportMetric(op/b.Elapsed().Seconds()/1e9, "GOP/s")
	b.ReportMetric(op/(cpuTime()-cpu0).Seconds()/1e9, "GOP/cpu-s")
}

// BenchmarkMatMulParallel: one query's FFN product (12 tokens, 384 ×
// 1536) shared out between two workers, as the encoder does for a short
// sequence.
func BenchmarkMatMulParallel(b *testing.B) {
	const m = 12
	a, p, c, bias := ffn(m)
	var q Quant
	Quantize(&q, a, ffnK, m, ffnK)
	cpu0 := cpuTime()
	for b.Loop() {
		MatMulParallel(c, ffnN, &q, p, bias, 2)
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(2*m*ffnK*ffnN)*float64(b.N)/cpu.Seconds()/1e9, "GOP/cpu-s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// TestPackLayoutsAgree: a matrix packed from its torch layout (columns
// contiguous) and from its ONNX layout (rows contiguous) gives the same
// panels.
func TestPackLayoutsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, s := range []struct{ k, n int }{{5, 32}, {32, 64}, {384, 96}} {
		w := random(r, s.n*s.k, -1, 1) // n × k
		wt := make([]float32, s.k*s.n)
		for j := 0; j < s.n; j++ {
			for kk := 0; kk < s.k; kk++ {
				wt[kk*s.n+j] = w[j*s.k+kk]
			}
		}
		a, b := NewPanels(s.k, s.n), NewPanels(s.k, s.n)
		PackInto(a, 0, w, s.n, 1, s.k, 0.5)
		PackInto(b, 0, wt, s.n, s.n, 1, 0.5)
		for i := range a.Data {
			if a.Data[i] != b.Data[i] {
				t.Fatalf("%+v: byte %d: %d vs %d", s, i, a.Data[i], b.Data[i])
			}
		}
		for c := range a.Scale {
			if a.Scale[c] != b.Scale[c] || a.CSum[c] != b.CSum[c] {
				t.Fatalf("%+v: column %d: scale %g/%g, sum %g/%g", s, c, a.Scale[c], b.Scale[c], a.CSum[c], b.CSum[c])
			}
		}
	}
}

func TestQuantSymMatchesPortable(t *testing.T) {
	for _, k := range kernels()[1:] {
		t.Logf("helpers of kernel %s", k.name)
		with(k, func() {
			r := rand.New(rand.NewPCG(13, 14))
			for _, n := range []int{3, 16, 40, 384} {
				x := random(r, n, -2, 2)
				got, want := make([]int8, n), make([]int8, n)
				quantSym(got, x, 60)
				quantSymGo(want, x, 60)
				for j := range want {
					if got[j] != want[j] {
						t.Fatalf("quantSym n=%d: [%d] = %d, want %d", n, j, got[j], want[j])
					}
				}
			}
		})
	}
}

// TestPackRowsMatchesPortable packs ONNX-layout matrices (odd row counts,
// columns not starting at a panel) with the assembly and without.
func TestPackRowsMatchesPortable(t *testing.T) {
	for _, k := range kernels()[1:] {
		t.Logf("helpers of kernel %s", k.name)
		with(k, func() {
			r := rand.New(rand.NewPCG(15, 16))
			for _, s := range []struct{ k, n, col int }{{7, 32, 0}, {33, 48, 16}, {384, 96, 0}} {
				w := random(r, s.k*s.n, -1, 1)
				a, b := NewPanels(s.k, s.col+s.n), NewPanels(s.k, s.col+s.n)
				PackInto(a, s.col, w, s.n, s.n, 1, 1)
				with(oracle(k), func() { PackInto(b, s.col, w, s.n, s.n, 1, 1) })
				for i := range a.Data {
					if a.Data[i] != b.Data[i] {
						t.Fatalf("%+v: byte %d: %d, portable %d", s, i, a.Data[i], b.Data[i])
					}
				}
				for c := range a.Scale {
					if a.Scale[c] != b.Scale[c] || a.CSum[c] != b.CSum[c] {
						t.Fatalf("%+v: column %d differs", s, c)
					}
				}
			}
		})
	}
}

// TestBulkMatchesPortable holds Quantize and the packing of contiguous
// columns (keys, torch weights), which run whole matrices in assembly, to
// the portable code.
func TestBulkMatchesPortable(t *testing.T) {
	for _, k := range kernels()[1:] {
		t.Logf("helpers of kernel %s", k.name)
		with(k, func() {
			r := rand.New(rand.NewPCG(17, 18))
			for _, s := range []struct{ m, k, lda int }{{1, 16, 16}, {13, 32, 96}, {40, 384, 400}, {5, 20, 20}} {
				a := random(r, s.m*s.lda, -3, 2)
				a[0] = 7 // a row of one value: scale 0
				for j := 0; j < s.k && s.m > 1; j++ {
					a[s.lda+j] = 0.25
				}
				var got, want Quant
				Quantize(&got, a, s.lda, s.m, s.k)
				with(oracle(k), func() { Quantize(&want, a, s.lda, s.m, s.k) })
				for i := range want.Data {
					if got.Data[i] != want.Data[i] {
						t.Fatalf("Quantize %+v: byte %d = %d, portable %d", s, i, got.Data[i], want.Data[i])
					}
				}
				for i := range want.Scale {
					if got.Scale[i] != want.Scale[i] || got.Min[i] != want.Min[i] {
						t.Fatalf("Quantize %+v: row %d: scale %g min %g, portable %g %g", s, i, got.Scale[i], got.Min[i], want.Scale[i], want.Min[i])
					}
				}
				// The same matrix as s.m columns of a K-row matrix, at column 3.
				pg, pw := NewPanels(s.k, 64), NewPanels(s.k, 64)
				PackInto(pg, 3, a, s.m, 1, s.lda, 0.5)
				with(oracle(k), func() { PackInto(pw, 3, a, s.m, 1, s.lda, 0.5) })
				for i := range pw.Data {
					if pg.Data[i] != pw.Data[i] {
						t.Fatalf("PackInto %+v: byte %d = %d, portable %d", s, i, pg.Data[i], pw.Data[i])
					}
				}
				for c := range pw.Scale {
					if pg.Scale[c] != pw.Scale[c] || pg.CSum[c] != pw.CSum[c] {
						t.Fatalf("PackInto %+v: column %d: %g %g, portable %g %g", s, c, pg.Scale[c], pg.CSum[c], pw.Scale[c], pw.CSum[c])
					}
				}
			}
		})
	}
}

// TestReusedQuantIgnoresStaleBytes: a Quant reused after a larger matrix
// (its bytes past K and rows past M not cleared) gives a fresh one's
// product, K not a multiple of 4 included.
func TestReusedQuantIgnoresStaleBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	const m, k, n = 13, 5, 32
	a, w, bias := random(r, m*k, -1, 1), random(r, n*k, -1, 1), random(r, n, -1, 1)
	p := NewPanels(k, n)
	PackInto(p, 0, w, n, 1, k, 1)
	var used, fresh Quant
	Quantize(&used, random(r, 40*64, 5, 9), 64, 40, 64)
	for i := range used.Data {
		used.Data[i] = 0xff
	}
	Quantize(&used, a, k, m, k)
	Quantize(&fresh, a, k, m, k)
	got, want := make([]float32, m*n), make([]float32, m*n)
	MatMul(got, n, &used, p, bias)
	MatMul(want, n, &fresh, p, bias)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("c[%d] = %g after reuse, %g fresh", i, got[i], want[i])
		}
	}
}

// BenchmarkPackHead packs one head's keys (per key) and values (per
// dimension) at 512 tokens from a 3·384-wide query/key/value matrix, as
// the int8 attention does for every head of every layer.
func BenchmarkPackHead(b *testing.B) {
	const L, h, d = 512, 384, 32
	r := rand.New(rand.NewPCG(21, 22))
	qkv := random(r, L*3*h, -2, 2)
	b.Run("keys", func(b *testing.B) {
		var keys Panels
		for b.Loop() {
			keys.Reset(d, L)
			PackInto(&keys, 0, qkv[h:], L, 1, 3*h, 0.17)
		}
	})
	b.Run("values", func(b *testing.B) {
		var vals Panels
		for b.Loop() {
			vals.Reset(L, d)
			PackInto(&vals, 0, qkv[2*h:], d, 3*h, 1, 1)
		}
	})
}
