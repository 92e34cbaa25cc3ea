package transformer

import (
	"math"

	"github.com/autorag/autorag/engine/embed/transformer/internal/fastmath"
	"github.com/autorag/autorag/engine/embed/transformer/internal/gemm"
	"github.com/autorag/autorag/engine/embed/transformer/internal/qgemm"
	"github.com/viterin/vek/vek32"
)

// attention computes the context of every head into ctx (rows × hidden,
// the first rows queries) from qkv (L rows of query | key | value). The
// keys are packed already scaled by 1/√d, and each row of probabilities is
// normalized after its product with the values (d multiplications instead
// of L).
func (e *encoder) attention(st *state, ctx, qkv []float32, L, rows int) {
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
		gemm.MatMul(scores, lp, qkv[off:], 3*h, rows, &st.keys)
		for i := 0; i < rows; i++ {
			inv[i] = softmax(scores[i*lp : i*lp+L])
		}
		gemm.MatMul(ctx[off:], h, scores, lp, rows, &st.vals)
		for i := 0; i < rows; i++ {
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

// attnRows is how many query rows the int8 attention takes at once: their
// scores (attnRows × L floats) and probabilities stay in the core's
// second-level cache instead of a whole L × L matrix per head.
const attnRows = 8 * qgemm.Rows

// attentionInt8 is attention with both products in int8, from qkv grouped
// by head (qgemm.MatMulGrouped in groups of d columns: head hd's queries,
// keys and values are the L × d matrices hd, heads+hd and 2·heads+hd).
// Per head, the keys (scaled by 1/√d) and values are quantized per key
// resp. per dimension, the queries per row; each block of query rows gets
// its scores, a softmax that writes its probabilities as bytes
// (e^(s-max)·255, rounded), and their product with the values, normalized
// by the sum of those bytes so the weights of a row sum to exactly one.
// Only the first rows queries are taken (ctx is rows × hidden).
func (e *encoder) attentionInt8(st *state, ctx, qkv []float32, L, rows int) {
	h := e.hidden
	heads := e.shape.Heads
	d := h / heads
	lp := (L + qgemm.Width - 1) / qgemm.Width * qgemm.Width
	scale := float32(1 / math.Sqrt(float64(d)))
	zero := grow(&st.zero, max(lp, d))
	clear(zero)
	scores := grow(&st.scores, min(attnRows, L)*lp)
	for hd := 0; hd < heads; hd++ {
		queries := qkv[hd*L*d : (hd+1)*L*d]
		keys := qkv[(heads+hd)*L*d : (heads+hd+1)*L*d]
		vals := qkv[(2*heads+hd)*L*d : (2*heads+hd+1)*L*d]
		st.qkeys.Reset(d, lp)
		qgemm.PackInto(&st.qkeys, 0, keys, L, 1, d, scale)
		st.qvals.Reset(L, d)
		qgemm.PackInto(&st.qvals, 0, vals, d, d, 1, 1)
		for i0 := 0; i0 < rows; i0 += attnRows {
			m := min(attnRows, rows-i0)
			qgemm.Quantize(&st.qq, queries[i0*d:], d, m, d)
			qgemm.MatMul(scores, lp, &st.qq, &st.qkeys, zero)
			st.qp.Reset(m, L)
			for i := 0; i < m; i++ {
				sum := fastmath.SoftmaxBytes(st.qp.RowBytes(i), scores[i*lp:i*lp+L])
				st.qp.SetScale(i, 1/float32(sum), 0)
			}
			qgemm.MatMul(ctx[i0*h+hd*d:], h, &st.qp, &st.qvals, zero)
		}
	}
}
