package qgemm

// The AVX2 kernel has no instruction that multiplies unsigned by signed
// bytes into exact sums (VPMADDUBSW saturates 16-bit pairs: 255·127·2 >
// 32767), so it multiplies 16-bit copies of both operands with VPMADDWD,
// whose pairs of products are summed exactly into 32 bits. The copies:
//
//   - Panels.wide holds B's bytes sign-extended, by pairs of k: per panel,
//     Kp/2 rows of Width columns × (B[2g][n], B[2g+1][n]).
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
		for g := 0; g < p.Kp/group; g++ {
			s := src[g*Width*group : (g+1)*Width*group]
			lo := dst[2*g*Width*2 : (2*g+1)*Width*2]
			hi := dst[(2*g+1)*Width*2 : (2*g+2)*Width*2]
			for c := 0; c < Width; c++ {
				lo[2*c], lo[2*c+1] = int16(s[4*c]), int16(s[4*c+1])
				hi[2*c], hi[2*c+1] = int16(s[4*c+2]), int16(s[4*c+3])
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
