package fastmath

import "math"

// LayerNorm sets x = LayerNorm(x + res)·g + b (res nil: of x alone), the
// mean and variance taken over x's len(x) values. x, g, b (and res) have
// the same length. The vector kernels (sixteen lanes with AVX-512, eight
// with AVX2, for lengths they divide) sum in float32, the Go code in
// float64.
func LayerNorm(x, res, g, b []float32, eps float32) {
	n := len(x)
	_, _ = g[n-1], b[n-1]
	if res != nil {
		_ = res[n-1]
	}
	if (useAVX512 && n%16 == 0) || (useAsm && n%8 == 0) {
		var r *float32
		if res != nil {
			r = &res[0]
		}
		if useAVX512 && n%16 == 0 {
			layerNorm16(&x[0], r, n, &g[0], &b[0], eps)
		} else {
			layerNorm8(&x[0], r, n, &g[0], &b[0], eps)
		}
		return
	}
	if res != nil {
		for j, v := range res[:n] {
			x[j] += v
		}
	}
	var sum, sq float64
	for _, v := range x {
		sum += float64(v)
	}
	mean := sum / float64(n)
	for _, v := range x {
		d := float64(v) - mean
		sq += d * d
	}
	inv := float32(1 / math.Sqrt(sq/float64(n)+float64(eps)))
	m := float32(mean)
	for j, v := range x {
		x[j] = (v-m)*inv*g[j] + b[j]
	}
}
