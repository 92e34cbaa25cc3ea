package qgemm

// The AVX2 kernel has no instruction that multiplies unsigned by signed
// bytes into exact sums (VPMADDUBSW saturates 16-bit pairs: 255·127·2 >
// 32767), so it multiplies 16-bit copies of both operands with VPMADDWD,
// whose pairs of products are summed exactly into 32 bits. The copies:
//
//   - Panels.wide holds B's bytes sign-extended, by pairs of k: per panel,
//     its two halves of 16 columns one after the other, each Kp/2 rows of
//     16 columns × (B[2g][n], B[2g+1][n]) (the kernel reads a half
//     contiguously).
//   - Quant.wide holds A's bytes zero-extended, at the same index as Data.
//
// They are kept only while that kernel is the one that runs (wideKernel).

// widenPanels refreshes the 16-bit copy of the panels holding columns col
// to col+n.
func widenPanels(p *Panels, col, n int) {
	if n <= 0 {
		return
	}
	pw := p.Kp * Width
	for j := col / Width; j <= (col+n-1)/Width; j++ {
		src, dst := p.Data[j*pw:(j+1)*pw], p.wide[j*pw:(j+1)*pw]
		const hw = Width / 2
		for g := 0; g < p.Kp/group; g++ {
			s := src[g*Width*group : (g+1)*Width*group]
			for c := 0; c < Width; c++ {
				half := dst[(c/hw)*p.Kp*hw:]
				lo := half[2*g*hw*2:]     // pair 2g
				hi := half[(2*g+1)*hw*2:] // pair 2g+1
				cc := c % hw
				lo[2*cc], lo[2*cc+1] = int16(s[4*c]), int16(s[4*c+1])
				hi[2*cc], hi[2*cc+1] = int16(s[4*c+2]), int16(s[4*c+3])
			}
		}
	}
}

// widen refreshes q's 16-bit copy of its bytes.
func (q *Quant) widen() {
	if cap(q.wide) < len(q.Data) {
		q.wide = make([]int16, len(q.Data))
	}
	q.wide = q.wide[:len(q.Data)]
	widenBytes(q.wide, q.Data)
}

func widenBytesGo(dst []int16, src []uint8) {
	for i, v := range src {
		dst[i] = int16(v)
	}
}
