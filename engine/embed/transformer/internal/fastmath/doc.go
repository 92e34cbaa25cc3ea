// Package fastmath holds the float32 functions of the encoder's forward
// pass that package math made slow: eˣ over a slice, the exact GELU
// (x·Φ(x) through erf, the feed-forward layers), LayerNorm, and the int8
// attention's softmax, which writes its probabilities as bytes
// (SoftmaxBytes). On amd64 they run sixteen lanes at a time with AVX-512
// (avx512_amd64.s) or Exp eight with AVX2 and FMA (exp_amd64.s); elsewhere,
// and for the last few elements, scalar versions compute the same formulas.
// Accuracy against package math: TestAccuracy, TestLayerNorm,
// TestSoftmaxBytes.
//
// It must never import anything of autorag: it is arithmetic only.
package fastmath
