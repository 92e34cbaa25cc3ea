//go:build !amd64

package vector

const hasVNNI = false

// dots computes out[i] = row i of codes · q (see dotsGo).
func dots(codes []byte, q []int8, stride int, out []int32) { dotsGo(codes, q, stride, out) }
