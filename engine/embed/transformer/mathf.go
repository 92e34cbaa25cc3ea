package transformer

import "math"

// expf and erff are the float32 functions of the forward pass (softmax and
// GELU), written out because the float64 math package's took a third of a
// forward pass's time. Their accuracy against package math is checked by
// TestMathf.

// expf is eˣ as 2ⁿ·eʳ with n = round(x/ln 2) and |r| ≤ ln 2 / 2, eʳ by its
// degree-6 Taylor polynomial (relative error below 2e-7).
func expf(x float32) float32 {
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693359375 // ln 2 = ln2hi + ln2lo, ln2hi exact in few bits
		ln2lo = -2.12194440e-4
	)
	if x < -87 {
		return 0
	}
	if x > 88 {
		x = 88
	}
	n := float32(math.Floor(float64(x*log2e + 0.5)))
	r := x - n*ln2hi - n*ln2lo
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720))))))
	return p * math.Float32frombits(uint32(int32(n)+127)<<23)
}

// erff is erf(x) by Abramowitz and Stegun 7.1.26 (absolute error 1.5e-7,
// below 5e-7 once evaluated in float32), odd in x.
func erff(x float32) float32 {
	const (
		p  = 0.3275911
		a1 = 0.254829592
		a2 = -0.284496736
		a3 = 1.421413741
		a4 = -1.453152027
		a5 = 1.061405429
	)
	s := float32(1)
	if x < 0 {
		s, x = -1, -x
	}
	t := 1 / (1 + p*x)
	y := 1 - ((((a5*t+a4)*t+a3)*t+a2)*t+a1)*t*expf(-x*x)
	return s * y
}
