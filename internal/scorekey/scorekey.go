package scorekey

import (
	"math"
	"unsafe"
)

// Float is a score: float32 (vector similarities) or float64 (fused and
// BM25 scores).
type Float interface{ float32 | float64 }

// BestFirst maps a score that is not NaN to a key that orders the higher
// score first, both zeros alike. A float32 key fits in the low 32 bits.
func BestFirst[F Float](score F) uint64 {
	if score == 0 {
		score = 0 // -0 ranks as 0
	}
	var b, sign uint64 // the score's bits and its sign bit
	if unsafe.Sizeof(score) == 4 {
		b, sign = uint64(math.Float32bits(float32(score))), 1<<31
	} else {
		b, sign = math.Float64bits(float64(score)), 1<<63
	}
	if b&sign != 0 {
		return b // negative: the larger the bits, the lower the score
	}
	return ^b & (sign - 1) // not negative: the larger the score, the smaller the key
}
