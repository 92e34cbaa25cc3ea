// Package fastmath holds the float32 functions of the encoder's forward
// pass that package math made slow: eˣ over a slice (softmax) and the exact
// GELU, x·Φ(x) through erf (the feed-forward layers). On amd64 with AVX2
// and FMA, Exp runs eight lanes at a time in Go assembly (exp_amd64.s);
// elsewhere, and for the last few elements, a scalar version computes the
// same formula. Accuracy against package math: TestAccuracy.
//
// It must never import anything of autorag: it is arithmetic only.
package fastmath
