package qgemm

// halfRows is the number of rows of the AVX2 kernel's tiles: a 12 × 32
// block is two of its 6 × 32 tiles (each two halves of 6 × 16).
const halfRows = Rows / 2

//go:noescape
func kernel6x16s(k4 int, a *uint8, lda int, b *int8, c *float32, ldc int, sw, csw, bias, sa, mina *float32, tiles int)

// blockAVX2 is block with the AVX2 kernel, on panels laid out as the VNNI
// kernel's but quantized to −NarrowTop…NarrowTop (Panels.Top): the same
// float epilogue as the VNNI kernel's, so the same floats for the same
// bytes.
func blockAVX2(a *Quant, i int, panel []int8, b *Panels, col int, bias []float32, c []float32, ldc int) {
	blocksAVX2(a, i, Rows, panel, b, col, bias, c, ldc)
}

// blocksAVX2 computes rows i to i+m of C (m a positive multiple of Rows)
// in the panel's 32 columns, in one call of the kernel: C's row i+r at
// c[r*ldc:].
func blocksAVX2(a *Quant, i, m int, panel []int8, b *Panels, col int, bias []float32, c []float32, ldc int) {
	// The assembly has no bounds checks: touch the last element of each
	// operand first.
	_ = a.Data[(i+m)*a.Kp-1]
	_ = panel[b.Kp*Width-1]
	_ = c[(m-1)*ldc+Width-1]
	_ = a.Scale[i+m-1]
	_ = a.Min[i+m-1]
	_ = b.Scale[col+Width-1]
	_ = b.CSum[col+Width-1]
	_ = bias[col+Width-1]
	kernel6x16s(b.Kp/group, &a.Data[i*a.Kp], a.Kp, &panel[0], &c[0], ldc,
		&b.Scale[col], &b.CSum[col], &bias[col], &a.Scale[i], &a.Min[i], m/halfRows)
}
