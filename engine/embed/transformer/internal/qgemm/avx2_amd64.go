package qgemm

// half is the number of rows and of columns the AVX2 kernel takes at once:
// a 12 × 32 block is four of its 6 × 16 tiles.
const (
	halfRows  = Rows / 2
	halfWidth = Width / 2
)

//go:noescape
func kernel6x16(k2 int, a *int16, lda int, b *int16, c *float32, ldc int, sw, csw, bias, sa, mina *float32)

//go:noescape
func widen16(dst *int16, src *uint8, n int)

// blockAVX2 is block with the AVX2 kernel, on the 16-bit copies of A and B
// (wide.go): the same integer sums, the same float epilogue as the VNNI
// kernel's, so the same floats.
func blockAVX2(a *Quant, i int, b *Panels, col int, bias []float32, c []float32, ldc int) {
	// The assembly has no bounds checks: touch the last element of each
	// operand first.
	pw := b.Kp * Width
	_ = a.wide[(i+Rows)*a.Kp-1]
	_ = b.wide[(col/Width+1)*pw-1]
	_ = c[(Rows-1)*ldc+Width-1]
	_ = a.Scale[i+Rows-1]
	_ = a.Min[i+Rows-1]
	_ = b.Scale[col+Width-1]
	_ = b.CSum[col+Width-1]
	_ = bias[col+Width-1]
	for r := 0; r < Rows; r += halfRows {
		for h := 0; h < Width; h += halfWidth {
			kernel6x16(b.Kp/2, &a.wide[(i+r)*a.Kp], a.Kp, &b.wide[(col/Width)*pw+h*b.Kp], &c[r*ldc+h], ldc,
				&b.Scale[col+h], &b.CSum[col+h], &bias[col+h], &a.Scale[i+r], &a.Min[i+r])
		}
	}
}

// widenBytes sets dst[i] = src[i] (len(src) values; dst as long).
func widenBytes(dst []int16, src []uint8) {
	n := 0
	if useAVX2 && len(src) >= 16 {
		n = len(src) &^ 15
		_ = dst[n-1]
		widen16(&dst[0], &src[0], n)
	}
	widenBytesGo(dst[n:], src[n:])
}
