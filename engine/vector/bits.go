package vector

import (
	"math"
	"math/bits"
	"slices"
)

// planes is the query precision of the sign-bit scan: the query is rounded
// to 2^planes levels, one bit plane each.
const planes = 4

// maxBitDims bounds the dims of the sign-bit scan: the kernel packs a row's
// popcount and plane sum into one uint32 (pop<<16 | sum).
const maxBitDims = 4096

// bquery is a query prepared for the sign-bit scan: q[i] ≈ lo + delta*u[i]
// with u[i] in [0, 15], stored as bit planes (bit b of u[i] in plane b);
// sum is Σ of the rounded q[i].
type bquery struct {
	q      []float32
	planes [planes][]uint64
	lo     float32
	delta  float32
	sum    float32
}

func prepareBits(q []float32) bquery {
	words := bitWords(len(q))
	b := bquery{q: q}
	for p := range b.planes {
		b.planes[p] = make([]uint64, words)
	}
	lo, hi := slices.Min(q), slices.Max(q)
	b.lo = lo
	if hi == lo {
		b.sum = lo * float32(len(q))
		return b
	}
	b.delta = (hi - lo) / (1<<planes - 1)
	for i, x := range q {
		u := int(math.Round(float64((x - lo) / b.delta)))
		u = max(0, min(1<<planes-1, u))
		for p := range planes {
			if u>>p&1 == 1 {
				b.planes[p][i/64] |= 1 << (i % 64)
			}
		}
		b.sum += lo + b.delta*float32(u)
	}
	return b
}

// estimate is the approximate dot product of the query with a row whose
// packed kernel result is v, in a segment whose mean has dot qmu with the
// query: q·mean + factor × (Σ over set bits − Σ over clear bits).
func (b *bquery) estimate(v uint32, qmu, factor float32) float32 {
	set := b.lo*float32(v>>16) + b.delta*float32(v&0xffff)
	return qmu + factor*(2*set-b.sum)
}

// bitDotsGo is the portable sign-bit kernel: for each row of words uint64s,
// out[i] = popcount(row)<<16 | Σ_p 2^p popcount(row & plane p).
func bitDotsGo(rows []uint64, words int, pl *[planes][]uint64, out []uint32) {
	p0, p1, p2, p3 := pl[0][:words], pl[1][:words], pl[2][:words], pl[3][:words]
	for i := range out {
		row := rows[i*words : (i+1)*words : (i+1)*words]
		var pop, a0, a1, a2, a3 int
		for w, x := range row {
			pop += bits.OnesCount64(x)
			a0 += bits.OnesCount64(x & p0[w])
			a1 += bits.OnesCount64(x & p1[w])
			a2 += bits.OnesCount64(x & p2[w])
			a3 += bits.OnesCount64(x & p3[w])
		}
		out[i] = uint32(pop)<<16 | uint32(a0+2*a1+4*a2+8*a3)
	}
}
