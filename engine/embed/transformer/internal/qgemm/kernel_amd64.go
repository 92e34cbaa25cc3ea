package qgemm

import "golang.org/x/sys/cpu"

// useAsm says whether the AVX-512 VNNI kernel and the AVX-512 quantizing
// helpers run; useAVX2 whether the AVX2 kernel (avx2_amd64.s) runs when
// they do not. The portable kernel computes the same integer sums
// otherwise. narrow says whether B is quantized to −NarrowTop…NarrowTop,
// as the AVX2 kernel requires.
var (
	hasVNNI = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VNNI
	useAsm  = hasVNNI
	useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	narrow  = useAVX2 && !useAsm
)

// Available reports whether this CPU runs an int8 kernel (AVX-512 VNNI or
// AVX2 with FMA): without one the portable kernel is slower than float32
// products.
func Available() bool { return useAsm || useAVX2 }

// SetAVX512 turns the AVX-512 code on (when the CPU has it) or off, so that
// the package computes as on a CPU without AVX-512 (the AVX2 kernel and the
// portable quantizing code): for measuring and testing that path on a
// machine that has both. Panels must be packed under the setting they are
// multiplied with. It returns the previous setting.
func SetAVX512(on bool) (was bool) {
	was, useAsm = useAsm, on && hasVNNI
	narrow = useAVX2 && !useAsm
	return was
}

// Narrow reports whether B is quantized to −NarrowTop…NarrowTop rather
// than −FullTop…FullTop: true where the AVX2 kernel runs (its vectors then
// differ from the VNNI kernel's).
func Narrow() bool { return narrow }

// Kernel names the kernel MatMul runs: "avx512-vnni", "avx2" or "go".
func Kernel() string {
	switch {
	case useAsm:
		return "avx512-vnni"
	case useAVX2:
		return "avx2"
	}
	return "go"
}

//go:noescape
func kernel12x32(k4 int, a *uint8, lda int, b *int8, c *float32, ldc int, sw, csw, bias, sa, mina *float32)

//go:noescape
func quantRow16(dst *uint8, x *float32, n int, lo, inv float32)

//go:noescape
func minMax16(x *float32, n int) (lo, hi float32)

func block(a *Quant, i int, panel []int8, b *Panels, col int, bias []float32, c []float32, ldc int) {
	if !useAsm {
		if useAVX2 {
			blockAVX2(a, i, panel, b, col, bias, c, ldc)
			return
		}
		blockGo(a, i, panel, b, col, bias, c, ldc)
		return
	}
	// The assembly has no bounds checks: touch the last element of each
	// operand first.
	_ = a.Data[(i+Rows)*a.Kp-1]
	_ = panel[b.Kp*Width-1]
	_ = c[(Rows-1)*ldc+Width-1]
	_ = a.Scale[i+Rows-1]
	_ = a.Min[i+Rows-1]
	_ = b.Scale[col+Width-1]
	_ = b.CSum[col+Width-1]
	_ = bias[col+Width-1]
	kernel12x32(b.Kp/group, &a.Data[i*a.Kp], a.Kp, &panel[0], &c[0], ldc,
		&b.Scale[col], &b.CSum[col], &bias[col], &a.Scale[i], &a.Min[i])
}

// blocks computes rows 0 to full (a multiple of Rows) of C in one panel's
// columns: block by block, or in one call of the AVX2 kernel.
func blocks(a *Quant, full int, panel []int8, b *Panels, col int, bias []float32, c []float32, ldc int) {
	if !useAsm && useAVX2 {
		blocksAVX2(a, 0, full, panel, b, col, bias, c, ldc)
		return
	}
	for i := 0; i < full; i += Rows {
		block(a, i, panel, b, col, bias, c[i*ldc:], ldc)
	}
}

func quantRow(dst []uint8, x []float32, lo, inv float32) {
	n := 0
	if (useAsm || useAVX2) && len(x) >= 16 {
		n = len(x) &^ 15
		_ = dst[n-1]
		if useAsm {
			quantRow16(&dst[0], &x[0], n, lo, inv)
		} else {
			quantRow8(&dst[0], &x[0], n, lo, inv)
		}
	}
	quantRowGo(dst[n:], x[n:], lo, inv)
}

func minMax(x []float32) (float32, float32) {
	if !(useAsm || useAVX2) || len(x) < 16 {
		return minMaxGo(x)
	}
	n := len(x) &^ 15
	var lo, hi float32
	if useAsm {
		lo, hi = minMax16(&x[0], n)
	} else {
		lo, hi = minMax8(&x[0], n)
	}
	if n < len(x) {
		l2, h2 := minMaxGo(x[n:])
		lo, hi = min(lo, l2), max(hi, h2)
	}
	return lo, hi
}

//go:noescape
func quantSym16(dst *int8, x *float32, n int, inv float32)

//go:noescape
func amaxCols16(acc *float32, x *float32, ks int, rows int, n int)

//go:noescape
func pack4x16(dst *int8, x *float32, ks int, inv *float32, sums *int32)

func quantSym(dst []int8, x []float32, inv float32) {
	n := 0
	if (useAsm || useAVX2) && len(x) >= 16 {
		n = len(x) &^ 15
		_ = dst[n-1]
		if useAsm {
			quantSym16(&dst[0], &x[0], n, inv)
		} else {
			quantSym8(&dst[0], &x[0], n, inv)
		}
	}
	quantSymGo(dst[n:], x[n:], inv)
}

// amaxCols sets amax[j] = max(amax[j], |w[r*ks + j]|) over rows r.
func amaxCols(amax, w []float32, ks, rows int) {
	n := len(amax)
	if !(useAsm || useAVX2) || n < 16 || rows == 0 {
		amaxColsGo(amax, w, ks, rows)
		return
	}
	m := n &^ 15
	_ = w[(rows-1)*ks+n-1]
	if useAsm {
		amaxCols16(&amax[0], &w[0], ks, rows, m)
	} else {
		amaxCols8(&amax[0], &w[0], ks, rows, m)
	}
	if m < n {
		amaxColsGo(amax[m:], w[m:], ks, rows)
	}
}

// pack4 is pack4x16 (four rows, sixteen columns) with bounds checked.
func pack4(dst []int8, x []float32, ks int, inv []float32, sums []int32) {
	_, _, _, _ = dst[63], x[3*ks+15], inv[15], sums[15]
	switch {
	case useAsm:
		pack4x16(&dst[0], &x[0], ks, &inv[0], &sums[0])
	case useAVX2:
		pack4x8(&dst[0], &x[0], ks, &inv[0], &sums[0])
		pack4x8(&dst[32], &x[8], ks, &inv[8], &sums[8])
	default:
		pack4Go(dst, x, ks, inv, sums)
	}
}

//go:noescape
func minMax8(x *float32, n int) (lo, hi float32)

//go:noescape
func quantRow8(dst *uint8, x *float32, n int, lo, inv float32)

//go:noescape
func quantSym8(dst *int8, x *float32, n int, inv float32)

//go:noescape
func amaxCols8(acc *float32, x *float32, ks int, rows int, n int)

//go:noescape
func pack4x8(dst *int8, x *float32, ks int, inv *float32, sums *int32)

//go:noescape
func quantRows16(dst *uint8, ldd int, src *float32, lda int, rows int, k int, scale *float32, mins *float32)

//go:noescape
func packCols16(dst *int8, src *float32, js int, col int, n int, k int, kp int, amax *float32, sums *int32)

// quantRows is Quantize's loop over m ≥ 1 rows (q already Reset).
func quantRows(q *Quant, a []float32, lda, m int) {
	if !(useAsm || useAVX2) || q.K%16 != 0 {
		quantRowsGo(q, a, lda, m)
		return
	}
	_ = a[(m-1)*lda+q.K-1]
	_, _, _ = q.Data[m*q.Kp-1], q.Scale[m-1], q.Min[m-1]
	if useAsm {
		quantRows16(&q.Data[0], q.Kp, &a[0], lda, m, q.K, &q.Scale[0], &q.Min[0])
		return
	}
	quantRows8(&q.Data[0], q.Kp, &a[0], lda, m, q.K, &q.Scale[0], &q.Min[0])
}

// packColumns is packContiguousColumns' quantization of n ≥ 1 columns: it
// fills p's bytes and returns each column's max|x| and byte sum.
func packColumns(p *Panels, col int, w []float32, n, js int, amax []float32, sums []int32) {
	if !(useAsm || useAVX2) || p.K%16 != 0 {
		packColumnsGo(p, col, w, n, js, amax, sums)
		return
	}
	_ = w[(n-1)*js+p.K-1]
	_ = p.Data[p.offset(p.K-1, col+n-1)]
	_, _ = amax[n-1], sums[n-1]
	if useAsm && p.top == FullTop {
		packCols16(&p.Data[0], &w[0], js, col, n, p.K, p.Kp, &amax[0], &sums[0])
		return
	}
	packCols8(&p.Data[0], &w[0], js, col, n, p.K, p.Kp, float32(p.top), &amax[0], &sums[0])
}

// The whole-matrix quantizing of the AVX2 path (bulk_avx2_amd64.s).

//go:noescape
func quantRows8(dst *uint8, ldd int, src *float32, lda int, rows int, k int, scale *float32, mins *float32)

//go:noescape
func packCols8(dst *int8, src *float32, js int, col int, n int, k int, kp int, top float32, amax *float32, sums *int32)
