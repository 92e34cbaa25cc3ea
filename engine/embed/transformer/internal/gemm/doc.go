// Package gemm multiplies float32 matrices for the transformer embedder:
// C = A·B with A row-major and B packed once into panels of 16 columns,
// computed 6 rows × 16 columns at a time by an AVX2/FMA kernel written in
// Go assembly (kernel_amd64.s), or by a portable Go kernel elsewhere.
//
// The kernel was chosen by measurement on the project's 2-core machines
// (BenchmarkMatMul against github.com/viterin/vek's MatMul and a loop of
// vek32.Dot; docs/BENCHMARKS.md). It is single-threaded on purpose: the
// embedder runs one sequence per worker and one worker per core.
//
// It must never import anything of autorag: it is arithmetic only.
package gemm
