//go:build !amd64

package gemm

// useAsm is false: there is no assembly kernel here.
var useAsm = false

func block(k int, a []float32, lda int, b []float32, c []float32, ldc int) {
	blockGo(k, a, lda, b, c, ldc)
}
