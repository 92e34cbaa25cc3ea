package transformer

import (
	"math"

	"github.com/autorag/autorag/engine/embed/transformer/internal/fastmath"
	"github.com/autorag/autorag/engine/embed/transformer/internal/gemm"
	"github.com/viterin/vek/vek32"
)

// state is one worker's scratch memory, reused from sequence to sequence.
type state struct {
	x, y, qkv, ctx, ffn, scores, inv []float32
	keys, vals                       gemm.Panels
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
// states, L rows of hidden floats, in st's memory.
func (e *encoder) forward(st *state, ids []int32) []float32 {
	L, h := len(ids), e.hidden
	x := grow(&st.x, L*h)
	for i, id := range ids {
		row := x[i*h : i*h+h]
		w, p := e.word[int(id)*h:int(id)*h+h], e.pos[i*h:i*h+h]
		for j := range row {
			row[j] = w[j] + p[j] + e.typ[j]
		}
		layerNorm(row, e.embLN, e.shape.Eps)
	}
	for li := range e.layers {
		x = e.block(st, &e.layers[li], x, L)
	}
	return x
}

// block is one encoder layer: self-attention and the feed-forward network,
// each with its residual connection and LayerNorm (post-norm, as BERT).
func (e *encoder) block(st *state, l *layer, x []float32, L int) []float32 {
	h := e.hidden
	qkv := grow(&st.qkv, L*3*h)
	st.dense(qkv, x, L, h, l.qkv)
	ctx := grow(&st.ctx, L*h)
	e.attention(st, ctx, qkv, L)
	y := grow(&st.y, L*h)
	st.dense(y, ctx, L, h, l.attnOut)
	addNorm(y, x, L, h, l.ln1, e.shape.Eps)
	ffn := grow(&st.ffn, L*e.inter)
	st.dense(ffn, y, L, h, l.ffnIn)
	fastmath.GELU(ffn)
	st.dense(x, ffn, L, e.inter, l.ffnOut)
	addNorm(x, y, L, h, l.ln2, e.shape.Eps)
	return x
}

// dense computes out = in·W + b for L rows of in floats each.
func (st *state) dense(out, in []float32, L, width int, l linear) {
	n := l.w.N
	gemm.MatMulParallel(out, n, in, width, L, l.w, st.workers)
	for i := 0; i < L; i++ {
		row := out[i*n : i*n+n]
		for j, b := range l.b {
			row[j] += b
		}
	}
}

// attention computes the context of every head into ctx (L × hidden) from
// qkv (L rows of query | key | value). The keys are packed already scaled
// by 1/√d, and each row of probabilities is normalized after its product
// with the values (d multiplications instead of L).
func (e *encoder) attention(st *state, ctx, qkv []float32, L int) {
	h := e.hidden
	heads := e.shape.Heads
	d := h / heads
	lp := (L + gemm.Width - 1) / gemm.Width * gemm.Width
	scale := float32(1 / math.Sqrt(float64(d)))
	scores := grow(&st.scores, L*lp)
	inv := grow(&st.inv, L)
	for hd := 0; hd < heads; hd++ {
		off := hd * d
		packHead(st, qkv, L, h, off, d, lp, scale)
		gemm.MatMul(scores, lp, qkv[off:], 3*h, L, &st.keys)
		for i := 0; i < L; i++ {
			inv[i] = softmax(scores[i*lp : i*lp+L])
		}
		gemm.MatMul(ctx[off:], h, scores, lp, L, &st.vals)
		for i := 0; i < L; i++ {
			row := ctx[i*h+off : i*h+off+d]
			for c := range row {
				row[c] *= inv[i]
			}
		}
	}
}

// packHead packs head off's keys (d × lp, times scale; columns past L
// zero) and values (L × d) into st's panels.
func packHead(st *state, qkv []float32, L, h, off, d, lp int, scale float32) {
	const w = gemm.Width
	st.keys.Reset(d, lp)
	st.vals.Reset(L, d)
	kd, vd := st.keys.Data, st.vals.Data
	for j := 0; j < L; j++ {
		row := qkv[j*3*h:]
		key := row[h+off : h+off+d]
		base := (j/w)*d*w + j%w
		for c, v := range key {
			kd[base+c*w] = v * scale
		}
		for p := 0; p < d/w; p++ {
			copy(vd[p*L*w+j*w:p*L*w+j*w+w], row[2*h+off+p*w:2*h+off+p*w+w])
		}
	}
}

// softmax turns row into e^(v - max) in place and returns 1 / their sum
// (the caller normalizes). Every pass is vectorized (vek's AVX2 max, sum
// and subtraction; fastmath's exponential).
func softmax(row []float32) float32 {
	vek32.SubNumber_Inplace(row, vek32.Max(row))
	fastmath.Exp(row)
	return 1 / vek32.Sum(row)
}

// addNorm computes x = LayerNorm(x + res) row by row.
func addNorm(x, res []float32, L, h int, n norm, eps float32) {
	for i := 0; i < L; i++ {
		row := x[i*h : i*h+h]
		for j, r := range res[i*h : i*h+h] {
			row[j] += r
		}
		layerNorm(row, n, eps)
	}
}

func layerNorm(row []float32, n norm, eps float32) {
	var sum, sq float64
	for _, v := range row {
		sum += float64(v)
	}
	mean := sum / float64(len(row))
	for _, v := range row {
		d := float64(v) - mean
		sq += d * d
	}
	inv := float32(1 / math.Sqrt(sq/float64(len(row))+float64(eps)))
	m := float32(mean)
	for j, v := range row {
		row[j] = (v-m)*inv*n.g[j] + n.b[j]
	}
}
