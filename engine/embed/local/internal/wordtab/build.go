package wordtab

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"
	"slices"
)

// Entry is one word for Build.
type Entry struct {
	Word string    // lower case, 1..255 bytes, unique
	Rank int       // 1-based frequency rank in the source vocabulary
	Vec  []float32 // dims values
}

// PCMethod says how Build derives each scheme's common component.
type PCMethod int

const (
	// PCMean takes the direction of the expected weighted word vector of
	// Zipf-distributed text, Σ p(w)·weight(w)·v(w): the direction every
	// long text's weighted sum leans toward.
	PCMean PCMethod = iota
	// PCEig takes the top eigenvector of Σ p(w)·weight(w)²·v(w)v(w)ᵀ, the
	// uncentred first principal component of weighted word vectors.
	PCEig
)

// Build lays out a table of entries, which must be in rank order.
func Build(entries []Entry, dims int, pc PCMethod) ([]byte, error) {
	if dims <= 0 || len(entries) == 0 {
		return nil, fmt.Errorf("build word table: %d entries of %d dims", len(entries), dims)
	}
	slotBits := uint(bits.Len(uint(len(entries) * 5 / 4))) // load factor ≤ 0.8
	nComp := len(schemes)
	compOff := HeaderSize
	slotsOff := compOff + nComp*dims*4
	recStart := slotsOff + 4<<slotBits

	buf := make([]byte, recStart, recStart+len(entries)*(dims+16))
	codes := make([]uint8, len(entries))
	deq := make([][]float64, len(entries))
	offs := make([]int, len(entries))
	for i, e := range entries {
		if len(e.Word) == 0 || len(e.Word) > 255 || len(e.Vec) != dims {
			return nil, fmt.Errorf("build word table: entry %d (%q): bad word or %d dims", i, e.Word, len(e.Vec))
		}
		offs[i] = len(buf)
		codes[i] = RankCode(e.Rank)
		var scale float32
		buf, scale = appendRecord(buf, e.Word, codes[i], e.Vec)
		deq[i] = dequantize(buf[len(buf)-dims:], scale)
	}
	if len(buf) > MaxTableSize {
		return nil, fmt.Errorf("build word table: %d bytes exceeds %d", len(buf), MaxTableSize)
	}
	mask := uint64(1)<<slotBits - 1
	for i, e := range entries {
		if err := insert(buf, buf[slotsOff:recStart], mask, e.Word, offs[i]); err != nil {
			return nil, err
		}
	}
	for i, s := range schemes {
		u := component(s, entries, codes, deq, pc)
		for d, x := range u {
			binary.LittleEndian.PutUint32(buf[compOff+(i*dims+d)*4:], math.Float32bits(float32(x)))
		}
	}
	copy(buf, Magic)
	for i, v := range []uint32{FormatVersion, uint32(dims), uint32(len(entries)), uint32(slotBits),
		uint32(slotsOff), uint32(recStart), uint32(len(buf)), math.Float32bits(oovNorm(deq)),
		uint32(nComp), uint32(compOff), uint32(len(buf))} {
		binary.LittleEndian.PutUint32(buf[8+4*i:], v)
	}
	binary.LittleEndian.PutUint32(buf[52:], crc32.ChecksumIEEE(buf[HeaderSize:]))
	return buf, nil
}

// appendRecord quantizes vec to int8 with a per-row scale max|v|/127.
func appendRecord(buf []byte, word string, code uint8, vec []float32) ([]byte, float32) {
	var maxAbs float32
	for _, x := range vec {
		maxAbs = max(maxAbs, float32(math.Abs(float64(x))))
	}
	scale := maxAbs / 127
	if scale == 0 {
		scale = 1
	}
	buf = append(buf, byte(len(word)))
	buf = append(buf, word...)
	buf = append(buf, code)
	buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(scale))
	for _, x := range vec {
		q := math.Round(float64(x / scale))
		buf = append(buf, byte(int8(max(-127, min(127, q)))))
	}
	return buf, scale
}

func dequantize(q []byte, scale float32) []float64 {
	v := make([]float64, len(q))
	for d, b := range q {
		v[d] = float64(scale) * float64(int8(b))
	}
	return v
}

// insert puts the record at off into the slots of the table buf.
func insert(buf, slots []byte, mask uint64, word string, off int) error {
	h := Hash([]byte(word))
	for i := h & mask; ; i = (i + 1) & mask {
		p := slots[i*4:]
		s := binary.LittleEndian.Uint32(p)
		if s == 0 {
			binary.LittleEndian.PutUint32(p, uint32(off)<<8|uint32(h>>56))
			return nil
		}
		if o := int(s >> 8); s&0xff == uint32(h>>56) && string(buf[o+1:o+1+int(buf[o])]) == word {
			return fmt.Errorf("build word table: %q inserted twice", word)
		}
	}
}

// component is scheme s's common direction (unit length) under Zipf
// probabilities p ∝ 1/rank.
func component(s Scheme, entries []Entry, codes []uint8, deq [][]float64, m PCMethod) []float64 {
	dims := len(deq[0])
	mean := make([]float64, dims)
	c := make([]float64, dims*dims)
	for i, v := range deq {
		p := 1 / float64(entries[i].Rank)
		w := s.Weight(codes[i])
		for d, x := range v {
			mean[d] += p * w * x
		}
		if m == PCEig {
			pw2 := p * w * w
			for a, xa := range v {
				row := c[a*dims : (a+1)*dims]
				for b, xb := range v {
					row[b] += pw2 * xa * xb
				}
			}
		}
	}
	normalize(mean)
	if m != PCEig {
		return mean
	}
	u := slices.Clone(mean)
	next := make([]float64, dims)
	for range 200 {
		for a := range next {
			var sum float64
			for b, x := range u {
				sum += c[a*dims+b] * x
			}
			next[a] = sum
		}
		normalize(next)
		u, next = next, u
	}
	return u
}

func normalize(v []float64) {
	var n float64
	for _, x := range v {
		n += x * x
	}
	if n = math.Sqrt(n); n > 0 {
		for i := range v {
			v[i] /= n
		}
	}
}

// oovNorm is the median length of the rarest tenth of the vectors.
func oovNorm(deq [][]float64) float32 {
	tail := deq[len(deq)-max(1, len(deq)/10):]
	norms := make([]float64, len(tail))
	for i, v := range tail {
		for _, x := range v {
			norms[i] += x * x
		}
		norms[i] = math.Sqrt(norms[i])
	}
	slices.Sort(norms)
	return float32(norms[len(norms)/2])
}
