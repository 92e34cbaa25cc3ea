package qgemm

// half is the number of rows and of columns the AVX2 kernel takes at once:
// a 12 × 32 block is four of its 6 × 16 tiles.
const (
	halfRows  = Rows / 2
	halfWidth = Width / 2
)

//go:noescape
func kernel6x16(k4 int, a *uint8, lda int, b *int8, c *float32, ldc int, sw, csw, bias, sa, mina *float32)

// blockAVX2 is block with the AVX2 kernel, on panels laid out as the VNNI
// kernel's but quantized to −NarrowTop…NarrowTop (Panels.Top): the same
// float epilogue as the VNNI kernel's, so the same floats for the same
// bytes.
func blockAVX2(a *Quant, i int, panel []int8, b *Panels, col int, bias []float32, c []float32, ldc int) {
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
	for r := 0; r < Rows; r += halfRows {
		for h := 0; h < Width; h += halfWidth {
			kernel6x16(b.Kp/group, &a.Data[(i+r)*a.Kp], a.Kp, &panel[h*group], &c[r*ldc+h], ldc,
				&b.Scale[col+h], &b.CSum[col+h], &bias[col+h], &a.Scale[i+r], &a.Min[i+r])
		}
	}
}
