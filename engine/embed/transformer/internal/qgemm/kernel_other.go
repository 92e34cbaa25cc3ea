//go:build !amd64

package qgemm

// useAsm, useAVX2 and narrow are false: there is no assembly kernel here.
var useAsm, useAVX2, narrow = false, false, false

// Available reports whether this CPU runs an int8 kernel: never here.
func Available() bool { return useAsm }

// SetAVX512 does nothing here: there is no AVX-512 code.
func SetAVX512(on bool) (was bool) { return false }

// Narrow reports whether B is quantized to −NarrowTop…NarrowTop: never
// here.
func Narrow() bool { return narrow }

// Kernel names the kernel MatMul runs: the portable one.
func Kernel() string { return "go" }

func block(a *Quant, i int, panel []int8, b *Panels, col int, bias []float32, c []float32, ldc int) {
	blockGo(a, i, panel, b, col, bias, c, ldc)
}

func blocks(a *Quant, full int, panel []int8, b *Panels, col int, bias []float32, c []float32, ldc int) {
	for i := 0; i < full; i += Rows {
		block(a, i, panel, b, col, bias, c[i*ldc:], ldc)
	}
}

func quantRow(dst []uint8, x []float32, lo, inv float32) { quantRowGo(dst, x, lo, inv) }

func minMax(x []float32) (float32, float32) { return minMaxGo(x) }

func quantSym(dst []int8, x []float32, inv float32) { quantSymGo(dst, x, inv) }

func amaxCols(amax, w []float32, ks, rows int) { amaxColsGo(amax, w, ks, rows) }

func pack4(dst []int8, x []float32, ks int, inv []float32, sums []int32) {
	pack4Go(dst, x, ks, inv, sums)
}

func quantRows(q *Quant, a []float32, lda, m int) { quantRowsGo(q, a, lda, m) }

func packColumns(p *Panels, col int, w []float32, n, js int, amax []float32, sums []int32) {
	packColumnsGo(p, col, w, n, js, amax, sums)
}
