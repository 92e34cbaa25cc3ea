package gemm

import "golang.org/x/sys/cpu"

// useAsm says whether the AVX2/FMA kernel runs; the portable kernel
// computes the same sums otherwise (in another order: results agree to
// float32 rounding, not bit for bit).
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func kernel6x16(k int, a *float32, lda int, b *float32, c *float32, ldc int)

func block(k int, a []float32, lda int, b []float32, c []float32, ldc int) {
	if useAsm {
		checkBlock(k, a, lda, b, c, ldc)
		kernel6x16(k, &a[0], lda, &b[0], &c[0], ldc)
		return
	}
	blockGo(k, a, lda, b, c, ldc)
}
