//go:build !amd64

package fastmath

var useAsm, useAVX512 = false, false

// SetAVX512 does nothing here: there is no AVX-512 code.
func SetAVX512(on bool) (was bool) { return false }

// AVX512 reports whether the sixteen-lane kernels run: never here.
func AVX512() bool { return false }

func exp8(x *float32, n int) { panic("fastmath: no vector kernel") }

func softmaxBytes16(dst *uint8, x *float32, n int) int { panic("fastmath: no vector kernel") }

func gelu16(x *float32, n int) { panic("fastmath: no vector kernel") }

func layerNorm16(x, res *float32, n int, gamma, beta *float32, eps float32) {
	panic("fastmath: no vector kernel")
}

func gelu8(x *float32, n int) { panic("fastmath: no vector kernel") }

func max8(x *float32, n int) float32 { panic("fastmath: no vector kernel") }

func softmaxBytes8(dst *uint8, x *float32, n int, m float32) int {
	panic("fastmath: no vector kernel")
}

func layerNorm8(x, res *float32, n int, gamma, beta *float32, eps float32) {
	panic("fastmath: no vector kernel")
}
