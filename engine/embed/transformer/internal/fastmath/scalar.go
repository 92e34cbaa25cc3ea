package fastmath

import "math"

// expf is eˣ as 2ⁿ·eʳ with n = round(x/ln 2) and |r| ≤ ln 2 / 2, eʳ by its
// degree-6 Taylor polynomial (relative error below 5e-7).
func expf(x float32) float32 {
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693359375 // ln 2 = ln2hi + ln2lo, ln2hi exact in few bits
		ln2lo = -2.12194440e-4
	)
	x = min(max(x, -87), 88) // as the vector kernel: e⁻⁸⁷ is the least result
	k := x * log2e
	var ni int32
	if k >= 0 {
		ni = int32(k + 0.5)
	} else {
		ni = int32(k - 0.5)
	}
	n := float32(ni)
	r := x - n*ln2hi - n*ln2lo
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720))))))
	return p * math.Float32frombits(uint32(ni+127)<<23)
}

// Exp replaces every x[i] by e^x[i].
func Exp(x []float32) {
	n := 0
	if useAsm && len(x) >= 8 {
		n = len(x) &^ 7
		exp8(&x[0], n)
	}
	for i := n; i < len(x); i++ {
		x[i] = expf(x[i])
	}
}

// GELU replaces every x[i] by x·Φ(x) = x/2·(1 + erf(x/√2)), erf by
// Abramowitz and Stegun 7.1.26 with its exponential from Exp.
func GELU(x []float32) {
	const (
		p  = 0.3275911
		a1 = 0.254829592
		a2 = -0.284496736
		a3 = 1.421413741
		a4 = -1.453152027
		a5 = 1.061405429
	)
	switch {
	case useAVX512 && len(x) >= 16:
		n := len(x) &^ 15
		gelu16(&x[0], n)
		x = x[n:]
	case useAsm && len(x) >= 8:
		n := len(x) &^ 7
		gelu8(&x[0], n)
		x = x[n:]
	}
	var e [256]float32
	for len(x) > 0 {
		chunk := x[:min(len(x), len(e))]
		for i, v := range chunk {
			z := v * (math.Sqrt2 / 2)
			e[i] = -z * z
		}
		Exp(e[:len(chunk)])
		for i, v := range chunk {
			z := v * (math.Sqrt2 / 2)
			if z < 0 {
				z = -z
			}
			t := 1 / (1 + p*z)
			erf := 1 - ((((a5*t+a4)*t+a3)*t+a2)*t+a1)*t*e[i]
			if v < 0 {
				erf = -erf
			}
			chunk[i] = 0.5 * v * (1 + erf)
		}
		x = x[len(chunk):]
	}
}

// SoftmaxBytes writes round(255·e^(v - max)) for every v of x into dst
// (len(x) bytes) and returns the sum of those bytes: a softmax whose
// probabilities are dst[j]/sum, as the int8 attention multiplies them. The
// maximum's byte is 255, so the sum is at least 255. x is left as it was
// with AVX-512 or AVX2 and holds e^(v - max) otherwise.
func SoftmaxBytes(dst []uint8, x []float32) int {
	if len(x) == 0 {
		return 0
	}
	_ = dst[len(x)-1]
	if useAVX512 {
		return softmaxBytes16(&dst[0], &x[0], len(x))
	}
	if useAsm && len(x) >= 8 {
		return softmaxBytesAVX2(dst, x)
	}
	m := x[0]
	for _, v := range x {
		m = max(m, v)
	}
	for j := range x {
		x[j] -= m
	}
	Exp(x)
	sum := 0
	for j, v := range x {
		q := int(math.RoundToEven(float64(v * 255)))
		dst[j] = uint8(q)
		sum += q
	}
	return sum
}

// softmaxBytesAVX2 is SoftmaxBytes for len(x) ≥ 8 with AVX2: eight lanes,
// then the last len(x) % 8 values one at a time.
func softmaxBytesAVX2(dst []uint8, x []float32) int {
	n := len(x) &^ 7
	m := max8(&x[0], n)
	for _, v := range x[n:] {
		m = max(m, v)
	}
	sum := softmaxBytes8(&dst[0], &x[0], n, m)
	for j, v := range x[n:] {
		q := int(math.RoundToEven(float64(expf(v-m) * 255)))
		dst[n+j] = uint8(q)
		sum += q
	}
	return sum
}
