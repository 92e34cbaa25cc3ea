//go:build !amd64

package gemm

func block(k int, a []float32, lda int, b []float32, c []float32, ldc int) {
	blockGo(k, a, lda, b, c, ldc)
}
