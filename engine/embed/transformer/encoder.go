package transformer

import (
	"fmt"

	"github.com/autorag/autorag/engine/embed/transformer/internal/gemm"
	"github.com/autorag/autorag/engine/embed/transformer/internal/qgemm"
	"github.com/autorag/autorag/engine/embed/transformer/internal/weights"
)

// Shape is what the weights cannot say about a BERT encoder.
type Shape struct {
	Heads  int     // attention heads (12 for every model here)
	Eps    float32 // LayerNorm epsilon (1e-12 for BERT)
	MaxLen int     // longest sequence, special tokens included
}

// linear is one dense layer: its weight (in × out) packed for one of the
// two kernels (w for float32 products, q for int8 ones) and its bias.
type linear struct {
	w *gemm.Panels
	q *qgemm.Panels
	b []float32
}

// outputs is the layer's output size.
func (l *linear) outputs() int {
	if l.q != nil {
		return l.q.N
	}
	return l.w.N
}

type norm struct{ g, b []float32 }

type layer struct {
	qkv     linear // query, key and value side by side: out = 3·hidden
	attnOut linear
	ln1     norm
	ffnIn   linear
	ffnOut  linear
	ln2     norm
}

// encoder is a loaded BERT encoder: immutable, shared by every worker.
type encoder struct {
	shape         Shape
	int8          bool // products in int8 (package qgemm), not float32
	hidden, inter int
	vocab         int
	words         wordTable
	pos, typ      []float32 // typ: the row of token type 0
	embLN         norm
	layers        []layer
}

// newEncoder checks and packs the tensors of a BERT checkpoint.
func newEncoder(s weights.Set, sh Shape, int8 bool) (*encoder, error) {
	word, err := s.Get("embeddings.word_embeddings.weight")
	if err != nil {
		return nil, err
	}
	if len(word.Shape) != 2 {
		return nil, fmt.Errorf("word embeddings of shape %v", word.Shape)
	}
	words := floatWords{data: word.Data, h: word.Shape[1]}
	return buildEncoder(s, sh, int8, words, word.Shape[0], word.Shape[1])
}

// buildEncoder checks and packs the tensors of a BERT checkpoint but its
// word embeddings, which words holds (vocab rows of h floats).
func buildEncoder(s weights.Set, sh Shape, int8 bool, words wordTable, vocab, h int) (*encoder, error) {
	e := &encoder{shape: sh, int8: int8, vocab: vocab, hidden: h, words: words}
	if sh.Heads <= 0 || h%sh.Heads != 0 || (h/sh.Heads)%gemm.Width != 0 || h%qgemm.Width != 0 ||
		(int8 && (h/sh.Heads)%qgemm.Width != 0) {
		return nil, fmt.Errorf("hidden size %d with %d heads is not supported", h, sh.Heads)
	}
	pos, err := s.Get("embeddings.position_embeddings.weight")
	if err != nil {
		return nil, err
	}
	if len(pos.Shape) != 2 || pos.Shape[1] != h || pos.Shape[0] < sh.MaxLen {
		return nil, fmt.Errorf("position embeddings of shape %v for max length %d", pos.Shape, sh.MaxLen)
	}
	e.pos = pos.Data
	typ, err := s.Get("embeddings.token_type_embeddings.weight")
	if err != nil {
		return nil, err
	}
	if len(typ.Data) < h {
		return nil, fmt.Errorf("token type embeddings of shape %v", typ.Shape)
	}
	e.typ = typ.Data[:h]
	if e.embLN, err = getNorm(s, "embeddings.LayerNorm", h); err != nil {
		return nil, err
	}
	for i := 0; ; i++ {
		p := fmt.Sprintf("encoder.layer.%d.", i)
		if _, ok := s[p+"attention.self.query.weight"]; !ok {
			break
		}
		l, err := getLayer(s, p, h, int8)
		if err != nil {
			return nil, fmt.Errorf("layer %d: %w", i, err)
		}
		e.layers = append(e.layers, l)
		e.inter = l.ffnIn.outputs()
	}
	if len(e.layers) == 0 {
		return nil, fmt.Errorf("no encoder layers in the weights")
	}
	return e, nil
}

func getLayer(s weights.Set, p string, h int, int8 bool) (layer, error) {
	var l layer
	var err error
	if l.qkv, err = getLinear(s, int8, h, 0, p+"attention.self.query", p+"attention.self.key", p+"attention.self.value"); err != nil {
		return l, err
	}
	if l.attnOut, err = getLinear(s, int8, h, h, p+"attention.output.dense"); err != nil {
		return l, err
	}
	if l.ln1, err = getNorm(s, p+"attention.output.LayerNorm", h); err != nil {
		return l, err
	}
	if l.ffnIn, err = getLinear(s, int8, h, 0, p+"intermediate.dense"); err != nil {
		return l, err
	}
	if l.ffnOut, err = getLinear(s, int8, l.ffnIn.outputs(), h, p+"output.dense"); err != nil {
		return l, err
	}
	l.ln2, err = getNorm(s, p+"output.LayerNorm", h)
	return l, err
}

// getLinear packs the named dense layers of input size in side by side
// (their outputs concatenated), for the int8 kernel when int8; out, when
// not 0, is the total output size required.
func getLinear(s weights.Set, int8 bool, in, out int, names ...string) (linear, error) {
	type part struct {
		w    *weights.Tensor
		b    []float32
		outs int
	}
	var parts []part
	total := 0
	for _, n := range names {
		w, err := s.Get(n + ".weight")
		if err != nil {
			return linear{}, err
		}
		outs, ins := w.Shape[0], w.Shape[len(w.Shape)-1]
		if w.InOut {
			ins, outs = w.Shape[0], w.Shape[1]
		}
		if len(w.Shape) != 2 || ins != in {
			return linear{}, fmt.Errorf("%s: shape %v for input size %d", n, w.Shape, in)
		}
		b, err := s.Get(n+".bias", outs)
		if err != nil {
			return linear{}, err
		}
		parts = append(parts, part{w, b.Data, outs})
		total += outs
	}
	if (out != 0 && total != out) || total%qgemm.Width != 0 {
		return linear{}, fmt.Errorf("%v: output size %d, want %d", names, total, out)
	}
	l := linear{b: make([]float32, 0, total)}
	if int8 {
		l.q = qgemm.NewPanels(in, total)
	} else {
		l.w = gemm.NewPanels(in, total)
	}
	col := 0
	for _, p := range parts {
		if p.outs%gemm.Width != 0 {
			return linear{}, fmt.Errorf("%v: output size %d is not a multiple of %d", names, p.outs, gemm.Width)
		}
		w := p.w.Floats() // dequantized here for Q4 tensors, dropped after packing
		switch {
		case int8 && p.w.InOut:
			qgemm.PackInto(l.q, col, w, p.outs, p.outs, 1, 1)
		case int8:
			qgemm.PackInto(l.q, col, w, p.outs, 1, in, 1)
		case p.w.InOut:
			gemm.PackColsInto(l.w, col, w, in, p.outs)
		default:
			gemm.PackRowsInto(l.w, col, w, p.outs, in)
		}
		l.b = append(l.b, p.b...)
		col += p.outs
	}
	return l, nil
}

func getNorm(s weights.Set, name string, h int) (norm, error) {
	g, err := s.Get(name+".weight", h)
	if err != nil {
		return norm{}, err
	}
	b, err := s.Get(name+".bias", h)
	if err != nil {
		return norm{}, err
	}
	return norm{g.Data, b.Data}, nil
}
