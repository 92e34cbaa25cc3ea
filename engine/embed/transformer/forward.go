package transformer

import (
	"github.com/autorag/autorag/engine/embed/transformer/internal/fastmath"
	"github.com/autorag/autorag/engine/embed/transformer/internal/gemm"
	"github.com/autorag/autorag/engine/embed/transformer/internal/qgemm"
)

// state is one worker's scratch memory, reused from sequence to sequence.
type state struct {
	x, y, qkv, ctx, ffn, scores, inv []float32
	keys, vals                       gemm.Panels
	// The int8 path's operands: a dense layer's quantized input, and
	// attention's queries, probabilities, keys and values.
	in, qq, qp   qgemm.Quant
	qkeys, qvals qgemm.Panels
	zero         []float32 // a bias of zeros
	// workers > 1 shares each dense layer's product among that many
	// goroutines (a lone sequence: a query).
	workers int
}

// grow returns (*b)[:n], reallocating when it is too short.
func grow(b *[]float32, n int) []float32 {
	if cap(*b) < n {
		*b = make([]float32, n)
	}
	*b = (*b)[:n]
	return *b
}

// forward runs the encoder over one sequence of token ids (special tokens
// included, every token attended: no padding) and returns its last hidden
// states, L rows of hidden floats, in st's memory; only the first rows of
// them when rows < L (the [CLS] state alone: rows = 1). Every row but
// attention's mixing is computed on its own, and the keys and values of
// the last layer still come from every row, so those rows are the same,
// bit for bit, as when all are computed (TestForwardFirstRows).
func (e *encoder) forward(st *state, ids []int32, rows int) []float32 {
	L, h := len(ids), e.hidden
	x := grow(&st.x, L*h)
	for i, id := range ids {
		row := x[i*h : i*h+h]
		e.words.row(row, id)
		p := e.pos[i*h : i*h+h]
		for j := range row {
			row[j] += p[j] + e.typ[j]
		}
		fastmath.LayerNorm(row, nil, e.embLN.g, e.embLN.b, e.shape.Eps)
	}
	for li := range e.layers {
		out := L
		if li == len(e.layers)-1 {
			out = min(rows, L)
		}
		x = e.block(st, &e.layers[li], x, L, out)
	}
	return x
}

// block is one encoder layer: self-attention and the feed-forward network,
// each with its residual connection and LayerNorm (post-norm, as BERT), for
// the first rows of x's L (keys and values from all L).
func (e *encoder) block(st *state, l *layer, x []float32, L, rows int) []float32 {
	h := e.hidden
	qkv := grow(&st.qkv, L*3*h)
	ctx := grow(&st.ctx, rows*h)
	if e.int8 {
		// Grouped by head: each head's queries, keys and values are an
		// L × d matrix of their own, read contiguously by attention.
		d := h / e.shape.Heads
		qgemm.Quantize(&st.in, x, h, L, h)
		qgemm.MatMulGrouped(qkv, d, &st.in, l.qkv.q, l.qkv.b, st.workers)
		e.attentionInt8(st, ctx, qkv, L, rows)
	} else {
		st.dense(qkv, x, L, h, l.qkv)
		e.attention(st, ctx, qkv, L, rows)
	}
	y := grow(&st.y, rows*h)
	st.dense(y, ctx, rows, h, l.attnOut)
	addNorm(y, x, rows, h, l.ln1, e.shape.Eps)
	// The feed-forward network ffnRows rows at a time: its intermediate
	// (ffnRows × inter floats) stays in the core's cache from the first
	// product through GELU to the second, instead of a whole L × inter
	// matrix going out to memory and back. Rows are independent, so the
	// values are the same.
	ffn := grow(&st.ffn, min(rows, ffnRows)*e.inter)
	for r0 := 0; r0 < rows; r0 += ffnRows {
		m := min(ffnRows, rows-r0)
		f := ffn[:m*e.inter]
		st.dense(f, y[r0*h:], m, h, l.ffnIn)
		fastmath.GELU(f)
		st.dense(x[r0*h:], f, m, e.inter, l.ffnOut)
	}
	addNorm(x, y, rows, h, l.ln2, e.shape.Eps)
	return x
}

// ffnRows is how many rows the feed-forward network takes at once (a
// variable for TestFFNInRowBlocks).
var ffnRows = 4 * qgemm.Rows

// dense computes out = in·W + b for L rows of in floats each.
func (st *state) dense(out, in []float32, L, width int, l linear) {
	if l.q != nil {
		qgemm.Quantize(&st.in, in, width, L, width)
		qgemm.MatMulParallel(out, l.q.N, &st.in, l.q, l.b, st.workers)
		return
	}
	n := l.w.N
	gemm.MatMulParallel(out, n, in, width, L, l.w, st.workers)
	for i := 0; i < L; i++ {
		row := out[i*n : i*n+n]
		for j, b := range l.b {
			row[j] += b
		}
	}
}

// addNorm computes x = LayerNorm(x + res) row by row.
func addNorm(x, res []float32, L, h int, n norm, eps float32) {
	for i := 0; i < L; i++ {
		fastmath.LayerNorm(x[i*h:i*h+h], res[i*h:i*h+h], n.g, n.b, eps)
	}
}
