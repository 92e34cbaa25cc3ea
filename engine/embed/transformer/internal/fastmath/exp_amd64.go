package fastmath

import "golang.org/x/sys/cpu"

var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// useAVX512 selects the sixteen-lane kernels (avx512_amd64.s).
var useAVX512 = cpu.X86.HasAVX512F

// SetAVX512 turns the sixteen-lane kernels on (when the CPU has AVX-512)
// or off, so that the package computes as on a CPU without AVX-512: for
// measuring and testing that path on a machine that has both. It returns
// the previous setting.
func SetAVX512(on bool) (was bool) {
	was, useAVX512 = useAVX512, on && cpu.X86.HasAVX512F
	return was
}

// AVX512 reports whether the sixteen-lane kernels run: they round
// differently from the eight-lane and Go code.
func AVX512() bool { return useAVX512 }

// exp8 computes x[i] = e^x[i] for n floats, n a multiple of 8.
//
//go:noescape
func exp8(x *float32, n int)

// softmaxBytes16 is SoftmaxBytes for n ≥ 1 floats.
//
//go:noescape
func softmaxBytes16(dst *uint8, x *float32, n int) (sum int)

// gelu16 is GELU for n floats, n a multiple of 16.
//
//go:noescape
func gelu16(x *float32, n int)

// layerNorm16 is LayerNorm for n floats, n a positive multiple of 16;
// res may be nil.
//
//go:noescape
func layerNorm16(x, res *float32, n int, gamma, beta *float32, eps float32)

// gelu8 is GELU for n floats, n a multiple of 8 (avx2_amd64.s).
//
//go:noescape
func gelu8(x *float32, n int)

// max8 is the greatest of n floats, n a positive multiple of 8.
//
//go:noescape
func max8(x *float32, n int) float32

// softmaxBytes8 is SoftmaxBytes' bytes for n floats, n a multiple of 8,
// given their maximum m.
//
//go:noescape
func softmaxBytes8(dst *uint8, x *float32, n int, m float32) (sum int)

// layerNorm8 is LayerNorm for n floats, n a positive multiple of 8; res
// may be nil (avx2_amd64.s).
//
//go:noescape
func layerNorm8(x, res *float32, n int, gamma, beta *float32, eps float32)
