package transformer

import "github.com/autorag/autorag/engine/embed/transformer/internal/weights"

// wordTable is a model's word embedding matrix: row writes token id's row
// (hidden floats) into dst.
type wordTable interface {
	row(dst []float32, id int32)
}

// floatWords is a word embedding matrix in float32, row-major.
type floatWords struct {
	data []float32
	h    int
}

func (w floatWords) row(dst []float32, id int32) {
	copy(dst, w.data[int(id)*w.h:int(id)*w.h+w.h])
}

// q4Words is a word embedding matrix kept as the Q4_0 blocks it ships in
// (a fifth of its float32 size: 54 MB for XLM-R's 250,037 rows of 384,
// not 384 MB), each row dequantized when a token looks it up.
type q4Words struct {
	blocks []byte
	h      int
}

func (w q4Words) row(dst []float32, id int32) {
	n := w.h / 32 * weights.Q4Block
	weights.DequantQ4(dst[:w.h], w.blocks[int(id)*n:int(id)*n+n])
}
