// Package qgemm multiplies matrices in 8-bit integers for the transformer
// embedder, with the AVX-512 VNNI instruction VPDPBUSD (four unsigned ×
// signed byte products summed into each 32-bit lane) or, on CPUs without
// it, with AVX2's VPMADDUBSW (two such products summed into 16 bits, with
// saturation) and VPMADDWD by ones (the two sums summed into 32 bits).
//
// C = A·B + bias, where B (weights, or attention's keys and values) is
// quantized once per column to signed bytes (symmetric: B[k][n] ≈
// Scale[n]·q) and packed into panels of 32 columns, and A (activations) is
// quantized per row at run time to unsigned bytes (asymmetric: A[i][k] ≈
// Min[i] + Scale[i]·q, q in 0…255), as onnxruntime quantizes activations
// dynamically but per row instead of per tensor. B's bytes span −127…127
// (FullTop) for the VNNI kernel, −64…64 (NarrowTop) for the AVX2 one, so
// that no pair of products exceeds 16 bits (2·255·64 = 32,640): that
// halves B's precision, not A's, which matters more (the transformer's
// TestInt8MatchesFloat). The integer sums are exact; the kernel turns them
// back into float32 with
// C[i][n] = Scale_B[n]·(Scale_A[i]·Σq_a·q_b + Min[i]·Σ_k q_b[k][n]) + bias[n].
//
// The VNNI kernel (kernel_amd64.s) computes 12 rows × 32 columns at a
// time, the AVX2 kernel (avx2_amd64.s) the same block as four tiles of
// 6 × 16, every full block of a panel in one call, on the same panel
// layout; a portable Go kernel computes the same
// integer sums elsewhere (and is the tests' oracle: TestKernelsAgree,
// TestKernelSumsExact). The two assembly kernels share their float
// epilogue, so on the same bytes their products are equal bit for bit.
// Available reports whether an assembly kernel can run: callers keep their
// float32 path (package gemm) for CPUs with neither. SetAVX512 turns the
// AVX-512 code off, to measure and test the AVX2 path on a machine that
// has both; panels are quantized for the kernel chosen when they are
// Reset.
// Like package gemm it is single-threaded unless asked (MatMulParallel).
//
// It must never import anything of autorag: it is arithmetic only.
package qgemm
