package gemm

import (
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/viterin/vek/vek32"
)

func random(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32() - 0.5
	}
	return s
}

// naive is the oracle: C = A · Wᵀ with W row-major N×K.
func naive(a []float32, m, k int, w []float32, n int) []float32 {
	c := make([]float32, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for kk := 0; kk < k; kk++ {
				s += float64(a[i*k+kk]) * float64(w[j*k+kk])
			}
			c[i*n+j] = float32(s)
		}
	}
	return c
}

func TestMatMulAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ m, k, n int }{{1, 1, 16}, {6, 3, 16}, {7, 32, 32}, {13, 384, 48}, {64, 100, 64}} {
		for _, asm := range []bool{false, true} {
			if asm && !useAsm {
				continue
			}
			saved := useAsm
			useAsm = asm
			a, w := random(r, tc.m*tc.k), random(r, tc.n*tc.k)
			c := make([]float32, tc.m*tc.n)
			MatMul(c, tc.n, a, tc.k, tc.m, PackRows(w, tc.n, tc.k))
			cp := make([]float32, len(c))
			MatMulParallel(cp, tc.n, a, tc.k, tc.m, PackRows(w, tc.n, tc.k), 3)
			useAsm = saved
			for i := range c {
				if c[i] != cp[i] {
					t.Fatalf("m=%d k=%d n=%d: MatMulParallel differs from MatMul at %d", tc.m, tc.k, tc.n, i)
				}
			}
			want := naive(a, tc.m, tc.k, w, tc.n)
			for i := range want {
				if d := math.Abs(float64(c[i] - want[i])); d > 1e-4 {
					t.Fatalf("m=%d k=%d n=%d asm=%v: c[%d] = %g, want %g", tc.m, tc.k, tc.n, asm, i, c[i], want[i])
				}
			}
		}
	}
}

func TestPackColsIsPackRowsOfTranspose(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	k, n := 5, 32
	w := random(r, n*k) // N×K
	wt := make([]float32, k*n)
	for j := 0; j < n; j++ {
		for kk := 0; kk < k; kk++ {
			wt[kk*n+j] = w[j*k+kk]
		}
	}
	a, b := PackRows(w, n, k), PackCols(wt, k, n)
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			t.Fatalf("panel element %d differs: %g vs %g", i, a.Data[i], b.Data[i])
		}
	}
}

// The shapes of one MiniLM/bge-small FFN matmul at 256 tokens.
const bm, bk, bn = 256, 384, 1536

// gflops reports the rate per second of wall time and per second of CPU
// time since cpu0 (which the machine's other load does not dilute).
func gflops(b *testing.B, cpu0 time.Duration) {
	flop := float64(2*bm*bk*bn) * float64(b.N)
	b.ReportMetric(flop/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	b.ReportMetric(flop/(cpuTime()-cpu0).Seconds()/1e9, "GFLOP/cpu-s")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkMatMul(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	a, p, c := random(r, bm*bk), PackRows(random(r, bn*bk), bn, bk), make([]float32, bm*bn)
	cpu0 := cpuTime()
	for b.Loop() {
		MatMul(c, bn, a, bk, bm, p)
	}
	gflops(b, cpu0)
}

// BenchmarkMatMulParallel: one query's product (12 tokens, 384 × 1536)
// shared out between two workers, as the encoder does for a short sequence.
func BenchmarkMatMulParallel(b *testing.B) {
	const m = 12
	r := rand.New(rand.NewPCG(5, 6))
	a, p, c := random(r, m*bk), PackRows(random(r, bn*bk), bn, bk), make([]float32, m*bn)
	cpu0 := cpuTime()
	for b.Loop() {
		MatMulParallel(c, bn, a, bk, m, p, 2)
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(2*m*bk*bn)*float64(b.N)/cpu.Seconds()/1e9, "GFLOP/cpu-s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkVekMatMul is the alternative measured against: vek's AVX2
// MatMul (which spreads rows over every core by itself).
func BenchmarkVekMatMul(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	a, w, c := random(r, bm*bk), random(r, bk*bn), make([]float32, bm*bn)
	cpu0 := cpuTime()
	for b.Loop() {
		vek32.MatMul_Into(c, a, w, bk)
	}
	gflops(b, cpu0)
}

// BenchmarkVekDot is the other alternative: one vek32.Dot per output.
func BenchmarkVekDot(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	a, w, c := random(r, bm*bk), random(r, bn*bk), make([]float32, bm*bn)
	cpu0 := cpuTime()
	for b.Loop() {
		for i := 0; i < bm; i++ {
			for j := 0; j < bn; j++ {
				c[i*bn+j] = vek32.Dot(a[i*bk:i*bk+bk], w[j*bk:j*bk+bk])
			}
		}
	}
	gflops(b, cpu0)
}
