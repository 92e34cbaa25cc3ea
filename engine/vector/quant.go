package vector

import (
	"math"

	"github.com/viterin/vek/vek32"
)

//semguard:begin vector-quant

// Codes are 4 bits a component: per 64-component block, 32 bytes whose
// byte j holds component j in its low nibble and component j+32 in its
// high one, so that the kernel unpacks a block into 64 bytes in order with
// one shift and two masks.
const (
	blockDims  = 64
	blockBytes = blockDims / 2
	codeLevels = 7 // codes c in [-7, 7]
	// codeZero is the stored nibble of 0: c+8, because the VNNI instruction
	// multiplies unsigned bytes by signed ones.
	codeZero = 8
)

// codeStride is the bytes of one row's codes: dims rounded up to a whole
// block, half a byte each; the padding components are zero.
func codeStride(dims int) int { return (dims + blockDims - 1) / blockDims * blockBytes }

// quantize writes the codes of v into code (len codeStride(len(v))) and
// returns the scale s with v[i] ≈ s*c[i]: each component is rounded to the
// nearest multiple of max|v|/7.
func quantize(v []float32, code []byte) float32 {
	m := maxAbs(v)
	if m == 0 {
		for i := range code {
			code[i] = codeZero | codeZero<<4
		}
		return 0
	}
	inv := codeLevels / float64(m)
	nib := func(i int) byte {
		if i >= len(v) {
			return codeZero
		}
		c := math.Round(float64(v[i]) * inv)
		return byte(int(max(-codeLevels, min(codeLevels, c))) + codeZero)
	}
	for blk := 0; blk*blockBytes < len(code); blk++ {
		out := code[blk*blockBytes : (blk+1)*blockBytes]
		base := blk * blockDims
		for j := range out {
			out[j] = nib(base+j) | nib(base+j+blockBytes)<<4
		}
	}
	return m / codeLevels
}

// nibble returns the stored code (c+8) of component i.
func nibble(code []byte, i int) int {
	blk, j := i/blockDims, i%blockDims
	b := code[blk*blockBytes+j%blockBytes]
	if j < blockBytes {
		return int(b & 0x0f)
	}
	return int(b >> 4)
}

// maxAbs is max|v[i]| (v is finite; 0 for an empty v), from vek32's
// AVX2 maximum and minimum.
func maxAbs(v []float32) float32 {
	if len(v) == 0 {
		return 0
	}
	return max(vek32.Max(v), -vek32.Min(v), 0)
}

//semguard:end vector-quant

// qquery is a query quantized for the 4-bit scan: its signed 8-bit codes
// (one byte per component, padded with zeros to whole blocks), their scale
// and the correction for the stored codes' offset (8 × the sum of the
// codes).
type qquery struct {
	codes []int8
	scale float32
	bias  int32
}

func quantizeQuery(q []float32) qquery {
	out := qquery{codes: make([]int8, 2*codeStride(len(q)))}
	m := maxAbs(q)
	if m == 0 {
		return out
	}
	inv := 127 / float64(m)
	var sum int32
	for i, x := range q {
		c := int8(max(-127, min(127, math.Round(float64(x)*inv))))
		out.codes[i] = c
		sum += int32(c)
	}
	out.scale, out.bias = m/127, codeZero*sum
	return out
}

// kernel is a named implementation of dotsGo.
type kernel struct {
	name string
	fn   func(codes []byte, q []int8, stride int, out []int32)
}

// dotsGo is the portable kernel: out[i] is the dot product of the stored
// nibbles (c+8) of row i of codes (n rows of stride bytes) with q (2×stride
// signed bytes).
func dotsGo(codes []byte, q []int8, stride int, out []int32) {
	for i := range out {
		row := codes[i*stride : (i+1)*stride : (i+1)*stride]
		var lo, hi int32
		for blk := 0; blk < stride; blk += blockBytes {
			b := row[blk : blk+blockBytes : blk+blockBytes]
			ql := q[2*blk : 2*blk+blockBytes : 2*blk+blockBytes]
			qh := q[2*blk+blockBytes : 2*blk+blockDims : 2*blk+blockDims]
			for j, x := range b {
				lo += int32(x&0x0f) * int32(ql[j])
				hi += int32(x>>4) * int32(qh[j])
			}
		}
		out[i] = lo + hi
	}
}
