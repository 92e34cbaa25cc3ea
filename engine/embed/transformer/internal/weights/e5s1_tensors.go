package weights

import (
	"encoding/binary"
	"fmt"
	"math"
)

type e5entry struct {
	dtype byte
	n     int
	data  []byte
}

// readTensors reads the tensor directory (name, type, element count,
// offset, byte size) and converts each tensor to its BERT name.
func (m *E5S1) readTensors(r *e5reader) error {
	n := r.i32()
	if r.err != nil || n <= 0 || n > 1<<16 {
		return fmt.Errorf("e5s1: tensor directory of %d entries", n)
	}
	dir := make(map[string]e5entry, n)
	for range n {
		nl := int(binary.LittleEndian.Uint16(r.take(2)))
		name := string(r.take(nl))
		dt := r.take(1)[0]
		cnt, off, nb := r.u32(), r.u64(), r.u64()
		if r.err != nil {
			return fmt.Errorf("e5s1: tensor directory: %w", r.err)
		}
		if off > uint64(len(r.b)) || nb > uint64(len(r.b))-off {
			return fmt.Errorf("e5s1: tensor %s: bytes %d+%d past the file's %d", name, off, nb, len(r.b))
		}
		dir[name] = e5entry{dtype: dt, n: int(cnt), data: r.b[off : off+nb]}
	}
	h, f := m.Hidden, m.FFN
	words, err := tensorOfDir(dir, "emb.word", e5Q4, m.Rows, h)
	if err != nil {
		return err
	}
	m.Words = words.data
	m.Set = Set{}
	add := func(src, dst string, dtype byte, shape ...int) error {
		e, err := tensorOfDir(dir, src, dtype, shape...)
		if err != nil {
			return err
		}
		if dtype == e5Q4 {
			m.Set[dst] = &Tensor{Shape: shape, q4: e.data}
		} else {
			m.Set[dst] = &Tensor{Shape: shape, Data: e.floats()}
		}
		return nil
	}
	for _, t := range []struct {
		src, dst string
		rows     int
	}{{"emb.pos", "position_embeddings.weight", m.MaxPos}, {"emb.type", "token_type_embeddings.weight", m.TypeRows}} {
		if err := add(t.src, "embeddings."+t.dst, e5F32, t.rows, h); err != nil {
			return err
		}
	}
	if err := addNormOf(add, "emb.ln", "embeddings.LayerNorm", h); err != nil {
		return err
	}
	for i := range m.Layers {
		if err := m.addLayer(add, i, h, f); err != nil {
			return err
		}
	}
	return nil
}

func (m *E5S1) addLayer(add func(src, dst string, dtype byte, shape ...int) error, i, h, f int) error {
	src, dst := fmt.Sprintf("l%d.", i), fmt.Sprintf("encoder.layer.%d.", i)
	for _, t := range []struct {
		src, dst string
		out, in  int
	}{
		{"q", "attention.self.query", h, h}, {"k", "attention.self.key", h, h}, {"v", "attention.self.value", h, h},
		{"ao", "attention.output.dense", h, h}, {"fi", "intermediate.dense", f, h}, {"fo", "output.dense", h, f},
	} {
		if err := add(src+t.src+".w", dst+t.dst+".weight", e5Q4, t.out, t.in); err != nil {
			return err
		}
		if err := add(src+t.src+".b", dst+t.dst+".bias", e5F32, t.out); err != nil {
			return err
		}
	}
	if err := addNormOf(add, src+"aln", dst+"attention.output.LayerNorm", h); err != nil {
		return err
	}
	return addNormOf(add, src+"oln", dst+"output.LayerNorm", h)
}

func addNormOf(add func(src, dst string, dtype byte, shape ...int) error, src, dst string, h int) error {
	if err := add(src+".w", dst+".weight", e5F32, h); err != nil {
		return err
	}
	return add(src+".b", dst+".bias", e5F32, h)
}

// tensorOfDir returns the named entry, checked to be of the type and shape.
func tensorOfDir(dir map[string]e5entry, name string, dtype byte, shape ...int) (e5entry, error) {
	e, ok := dir[name]
	if !ok {
		return e, fmt.Errorf("e5s1: tensor %s missing", name)
	}
	n := numel(shape)
	size := 4 * n
	if dtype == e5Q4 {
		size = n / 32 * Q4Block
	}
	if e.dtype != dtype || e.n != n || len(e.data) != size || (dtype == e5Q4 && shape[len(shape)-1]%32 != 0) {
		return e, fmt.Errorf("e5s1: tensor %s: type %d, %d elements in %d bytes, want type %d of shape %v", name, e.dtype, e.n, len(e.data), dtype, shape)
	}
	return e, nil
}

// floats converts a float32 entry.
func (e e5entry) floats() []float32 {
	out := make([]float32, e.n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(e.data[4*i:]))
	}
	return out
}

// DequantQ4 expands Q4_0 blocks into len(out) floats (a multiple of 32):
// each block is an fp16 scale d and 16 bytes, byte j holding weight j in
// its low nibble and weight j+16 in its high one, each weight (q − 8)·d.
func DequantQ4(out []float32, blocks []byte) {
	for b := 0; b < len(out)/32; b++ {
		blk := blocks[b*Q4Block : (b+1)*Q4Block]
		d := half(binary.LittleEndian.Uint16(blk))
		o := out[b*32 : b*32+32]
		for j, q := range blk[2:] {
			o[j] = float32(int(q&0x0F)-8) * d
			o[j+16] = float32(int(q>>4)-8) * d
		}
	}
}
