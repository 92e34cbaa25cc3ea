package vector

import "github.com/viterin/vek/vek32"

// dot returns the dot product of two vectors of equal, non-zero length.
//
// vek32.Dot is an AVX2+FMA kernel (four 8-lane accumulators) with a pure Go
// fallback on CPUs without AVX2. BenchmarkDotKernels compares it with a
// portable four-accumulator loop (dotUnrolled, dot_test.go).
func dot(a, b []float32) float32 {
	return vek32.Dot(a, b)
}
