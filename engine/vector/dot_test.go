package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

// dotUnrolled is a portable four-accumulator loop, the alternative
// BenchmarkDotKernels measures vek32.Dot against.
func dotUnrolled(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func TestDotKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 3, 31, 32, 33, 100, 384, 1536} {
		a, b := randUnit(rng, n), randUnit(rng, n)
		var ref float64
		for i := range a {
			ref += float64(a[i]) * float64(b[i])
		}
		for name, f := range map[string]func(a, b []float32) float32{"dot": dot, "unrolled": dotUnrolled} {
			if got := f(a, b); math.Abs(float64(got)-ref) > 1e-6 {
				t.Errorf("%s n=%d: %v, want %v", name, n, got, ref)
			}
		}
	}
}
