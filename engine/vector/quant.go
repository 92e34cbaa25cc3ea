package vector

import "math"

//semguard:begin vector-quant

// codeStride is the bytes of one row's codes: dims rounded up to 64, so
// that the kernel reads whole 64-byte blocks; the padding codes are zero.
func codeStride(dims int) int { return (dims + 63) &^ 63 }

// codeZero is the stored code of 0: codes are offset by 128 (an unsigned
// byte c+128 for c in [-127, 127]) because the VNNI instruction multiplies
// unsigned bytes by signed ones.
const codeZero = 128

// quantize writes the codes of v into code (len codeStride(len(v))) and
// returns the scale s with v[i] ≈ s*(code[i]-128): each component is
// rounded to the nearest multiple of max|v|/127.
func quantize(v []float32, code []byte) float32 {
	m := maxAbs(v)
	for i := range code {
		code[i] = codeZero
	}
	if m == 0 {
		return 0
	}
	inv := 127 / float64(m)
	for i, x := range v {
		c := math.Round(float64(x) * inv)
		code[i] = byte(int(max(-127, min(127, c))) + codeZero)
	}
	return m / 127
}

func maxAbs(v []float32) float32 {
	var m float32
	for _, x := range v {
		m = max(m, x, -x)
	}
	return m
}

//semguard:end vector-quant

// qquery is a query quantized for the int8 scan: its signed codes (padded
// with zeros to the code stride), their scale and the correction for the
// stored codes' offset (128 × the sum of the codes).
type qquery struct {
	codes []int8
	scale float32
	bias  int32
}

func quantizeQuery(q []float32) qquery {
	out := qquery{codes: make([]int8, codeStride(len(q)))}
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

// dotsGo is the portable kernel: out[i] is the dot product of row i of
// codes (n rows of stride bytes, unsigned) with q (stride signed bytes).
func dotsGo(codes []byte, q []int8, stride int, out []int32) {
	for i := range out {
		row := codes[i*stride : (i+1)*stride : (i+1)*stride]
		row = row[:len(q)]
		var s0, s1, s2, s3 int32
		for j := 0; j+4 <= len(q); j += 4 {
			s0 += int32(row[j]) * int32(q[j])
			s1 += int32(row[j+1]) * int32(q[j+1])
			s2 += int32(row[j+2]) * int32(q[j+2])
			s3 += int32(row[j+3]) * int32(q[j+3])
		}
		out[i] = s0 + s1 + s2 + s3
	}
}
