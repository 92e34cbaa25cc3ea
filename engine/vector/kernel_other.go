//go:build !amd64

package vector

const hasVNNI = false

// dots computes out[i] = row i of codes · q (see dotsGo).
func dots(codes []byte, q []int8, stride int, out []int32) { dotsGo(codes, q, stride, out) }

// bitDots computes the sign-bit kernel (see bitDotsGo).
func bitDots(rows []uint64, words int, pl *[planes][]uint64, out []uint32) {
	bitDotsGo(rows, words, pl, out)
}
