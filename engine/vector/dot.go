package vector

import "github.com/viterin/vek/vek32"

// dot returns the dot product of two vectors of equal, non-zero length.
//
// vek32.Dot is an AVX2+FMA kernel (four 8-lane accumulators) with a pure Go
// fallback on CPUs without AVX2. BenchmarkDotKernels compares it with
// dotUnrolled; see the package report for the figures that chose it.
func dot(a, b []float32) float32 {
	return vek32.Dot(a, b)
}

// dotUnrolled is a portable four-accumulator loop. It is the reference the
// SIMD kernel is benchmarked and tested against.
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
