package qgemm

import (
	"fmt"
	"math"

	"github.com/autorag/autorag/engine/embed/transformer/internal/parallel"
)

// Width is the number of columns of one panel.
const Width = 32

// Rows is the number of rows of A the kernel takes at once.
const Rows = 12

// group is the number of k values one 32-bit lane of VPDPBUSD sums.
const group = 4

// The largest magnitude of B's bytes: FullTop for the VNNI and portable
// kernels, NarrowTop for the AVX2 kernel, whose VPMADDUBSW sums pairs of
// byte products into 16 bits with saturation: 2·255·127 > 32,767, but
// 2·255·64 = 32,640 fits, so its sums are exact.
const (
	FullTop   = 127
	NarrowTop = 64
)

// Panels is a K×N matrix B quantized per column and packed for MatMul:
// N/Width panels, each Kp/4 groups of Width columns × 4 consecutive k,
// each byte in −Top…Top. Its rows past K are zero, always: MatMul relies
// on it.
type Panels struct {
	K, N, Kp int
	Data     []int8
	Scale    []float32 // B[k][n] ≈ Scale[n]·q[k][n]
	CSum     []float32 // Scale[n]·Σ_k q[k][n]
	top      int
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

// Reset makes p a zeroed K×N matrix (N a positive multiple of Width),
// reusing its storage when large enough, for the kernel that runs now
// (its bytes' Top).
func (p *Panels) Reset(k, n int) {
	if n%Width != 0 || n <= 0 || k <= 0 {
		panic(fmt.Sprintf("qgemm: panels of %d×%d: N must be a positive multiple of %d", k, n, Width))
	}
	p.K, p.N, p.Kp = k, n, roundUp(k, group)
	p.Data = growClear(p.Data, p.Kp*n)
	p.Scale = growClear(p.Scale, n)
	p.CSum = growClear(p.CSum, n)
	p.top = FullTop
	if narrow {
		p.top = NarrowTop
	}
}

// Top is the largest magnitude of p's bytes (FullTop or NarrowTop, chosen
// at Reset for the kernel that runs).
func (p *Panels) Top() int { return p.top }

// NewPanels returns zeroed panels for a K×N matrix.
func NewPanels(k, n int) *Panels {
	p := &Panels{}
	p.Reset(k, n)
	return p
}

func growClear[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// offset is the index in Data of B[k][n].
func (p *Panels) offset(k, n int) int {
	return (n/Width)*p.Kp*Width + (k/group)*Width*group + (n%Width)*group + k%group
}

// PackInto quantizes n columns of a K-row matrix into p's columns col to
// col+n: element (k, j) of the source is w[k*ks + j*js], one of ks and js
// being 1 (ks = 1, js = K for a torch Linear weight stored out × in, or
// attention's keys; ks = n, js = 1 for an ONNX MatMul weight stored in ×
// out, or attention's values). mult multiplies every value (1 for a
// weight; attention folds 1/√d into its keys). Each column gets its own
// scale, max|column|/Top, so weights that were int8 per column with zero
// point 0 (onnxruntime's quantize_dynamic) come back exactly, in
// −FullTop…FullTop; in −NarrowTop…NarrowTop for the AVX2 kernel, with a
// scale max|column|/64.
func PackInto(p *Panels, col int, w []float32, n, ks, js int, mult float32) {
	switch {
	case ks == 1:
		packContiguousColumns(p, col, w, n, js, mult)
	case js == 1:
		packContiguousRows(p, col, w, n, ks, mult)
	default:
		panic(fmt.Sprintf("qgemm: PackInto with strides %d and %d: one must be 1", ks, js))
	}
}

// packContiguousColumns packs columns whose K values are contiguous (column
// j at w[j*js:]).
func packContiguousColumns(p *Panels, col int, w []float32, n, js int, mult float32) {
	if n == 0 {
		return
	}
	amax, sums := make([]float32, n), make([]int32, n)
	packColumns(p, col, w, n, js, amax, sums)
	for j := range amax {
		c := col + j
		p.Scale[c] = amax[j] / float32(p.top) * mult
		p.CSum[c] = p.Scale[c] * float32(sums[j])
	}
}

func packColumnsGo(p *Panels, col int, w []float32, n, js int, amax []float32, sums []int32) {
	k := p.K
	tmp := make([]int8, p.Kp)
	for j := 0; j < n; j++ {
		x := w[j*js : j*js+k]
		lo, hi := minMax(x)
		amax[j] = max(-lo, hi)
		inv := float32(0)
		if amax[j] > 0 {
			inv = float32(p.top) / amax[j]
		}
		quantSym(tmp[:k], x, inv)
		sum := 0
		for _, q := range tmp[:k] {
			sum += int(q)
		}
		c := col + j
		base := (c/Width)*p.Kp*Width + (c%Width)*group
		for g := 0; g < p.Kp/group; g++ {
			copy(p.Data[base+g*Width*group:base+g*Width*group+group], tmp[g*group:g*group+group])
		}
		sums[j] = int32(sum)
	}
}

// packContiguousRows packs a matrix whose rows are contiguous (row k at
// w[k*ks:], n values).
func packContiguousRows(p *Panels, col int, w []float32, n, ks int, mult float32) {
	k := p.K
	amax := make([]float32, n)
	amaxCols(amax, w, ks, k)
	inv := make([]float32, n)
	for c, a := range amax {
		if a > 0 {
			inv[c] = float32(p.top) / a
		}
	}
	sums := make([]int32, n)
	full := k - k%group
	for kk := 0; kk < full; kk += group {
		for c := 0; c < n; c += 16 {
			cc := col + c
			if n-c < 16 || cc%16 != 0 {
				packRowsGo(p, col, w, ks, kk, group, c, min(n, c+16), inv, sums)
				continue
			}
			dst := p.Data[(cc/Width)*p.Kp*Width+(kk/group)*Width*group+(cc%Width)*group:]
			pack4(dst, w[kk*ks+c:], ks, inv[c:], sums[c:])
		}
	}
	if full < k {
		packRowsGo(p, col, w, ks, full, k-full, 0, n, inv, sums)
	}
	for c := range amax {
		p.Scale[col+c] = amax[c] / float32(p.top) * mult
		p.CSum[col+c] = p.Scale[col+c] * float32(sums[c])
	}
}

// packRowsGo quantizes rows k0 to k0+rows, columns c0 to c1, of
// packContiguousRows' matrix one value at a time.
func packRowsGo(p *Panels, col int, w []float32, ks, k0, rows, c0, c1 int, inv []float32, sums []int32) {
	for kk := k0; kk < k0+rows; kk++ {
		for c := c0; c < c1; c++ {
			q := int8(min(max(math.RoundToEven(float64(w[kk*ks+c]*inv[c])), -127), 127))
			p.Data[p.offset(kk, col+c)] = q
			sums[c] += int32(q)
		}
	}
}

func amaxColsGo(amax, w []float32, ks, rows int) {
	for kk := 0; kk < rows; kk++ {
		for c, v := range w[kk*ks : kk*ks+len(amax)] {
			amax[c] = max(amax[c], abs(v))
		}
	}
}

func pack4Go(dst []int8, x []float32, ks int, inv []float32, sums []int32) {
	for r := 0; r < group; r++ {
		for c := 0; c < 16; c++ {
			q := int8(min(max(math.RoundToEven(float64(x[r*ks+c]*inv[c])), -127), 127))
			dst[c*group+r] = q
			sums[c] += int32(q)
		}
	}
}

func quantSymGo(dst []int8, x []float32, inv float32) {
	for j, v := range x {
		dst[j] = int8(min(max(math.RoundToEven(float64(v*inv)), -127), 127))
	}
}

func abs(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// Quant is A quantized per row: M rows of Kp bytes (storage for M rounded
// up to Rows rows). The bytes past a row's K and the rows past M are left
// as they were (see Reset).
type Quant struct {
	M, K, Kp   int
	Data       []uint8
	Scale, Min []float32 // A[i][k] ≈ Min[i] + Scale[i]·q[i][k]
}

// Reset makes q an m × k matrix for its rows to be set. Its bytes are not
// cleared: those past a row's K values meet B's rows past K, which are
// zero, and the rows past M give tile rows MatMul discards.
func (q *Quant) Reset(m, k int) {
	q.M, q.K, q.Kp = m, k, roundUp(k, group)
	mp := roundUp(m, Rows)
	if cap(q.Data) < mp*q.Kp {
		q.Data = make([]uint8, mp*q.Kp)
	}
	q.Data = q.Data[:mp*q.Kp]
	q.Scale = growClear(q.Scale, mp)
	q.Min = growClear(q.Min, mp)
}

// Quantize quantizes m rows of k floats, row i at a[i*lda:], into q.
func Quantize(q *Quant, a []float32, lda, m, k int) {
	q.Reset(m, k)
	if m > 0 {
		quantRows(q, a, lda, m)
	}
}

func quantRowsGo(q *Quant, a []float32, lda, m int) {
	k := q.K
	for i := 0; i < m; i++ {
		row := a[i*lda : i*lda+k]
		lo, hi := minMax(row)
		q.SetRow(i, row, lo, hi)
	}
}

// SetRow quantizes row i from x (K floats) over the range lo…hi (values
// outside it saturate).
func (q *Quant) SetRow(i int, x []float32, lo, hi float32) {
	s := (hi - lo) / 255
	inv := float32(0)
	if s > 0 {
		inv = 1 / s
	}
	q.Scale[i], q.Min[i] = s, lo
	quantRow(q.Data[i*q.Kp:i*q.Kp+len(x)], x, lo, inv)
}

// ScaleRow multiplies row i's values by f (a softmax's normalization).
func (q *Quant) ScaleRow(i int, f float32) {
	q.Scale[i] *= f
	q.Min[i] *= f
}

// RowBytes is row i's storage, K bytes, for a caller that quantizes it
// itself (then SetScale).
func (q *Quant) RowBytes(i int) []uint8 { return q.Data[i*q.Kp : i*q.Kp+q.K] }

// SetScale sets row i's scale and minimum.
func (q *Quant) SetScale(i int, scale, lo float32) { q.Scale[i], q.Min[i] = scale, lo }

func quantRowGo(dst []uint8, x []float32, lo, inv float32) {
	for j, v := range x {
		f := (v - lo) * inv
		dst[j] = uint8(min(max(math.RoundToEven(float64(f)), 0), 255))
	}
}

func minMaxGo(x []float32) (float32, float32) {
	lo, hi := x[0], x[0]
	for _, v := range x {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// MatMul computes C = A·B + bias: C[i][·] = c[i*ldc : i*ldc+B.N] for the
// M rows of a; bias has N values. a.K must be b.K.
func MatMul(c []float32, ldc int, a *Quant, b *Panels, bias []float32) {
	prepare(a, b, bias)
	panels(c, ldc, a, b, bias, 0, b.N/Width)
}

// MatMulParallel is MatMul with the panels shared among workers goroutines.
func MatMulParallel(c []float32, ldc int, a *Quant, b *Panels, bias []float32, workers int) {
	prepare(a, b, bias)
	parallel.Split(b.N/Width, workers, func(j0, j1 int) { panels(c, ldc, a, b, bias, j0, j1) })
}

// prepare checks the operands' shapes, and that B's bytes suit the kernel:
// in −127…127 they would saturate the AVX2 kernel's sums.
func prepare(a *Quant, b *Panels, bias []float32) {
	if a.K != b.K || len(bias) < b.N {
		panic(fmt.Sprintf("qgemm: A has %d columns, B %d rows, bias %d of %d", a.K, b.K, len(bias), b.N))
	}
	if narrow && b.top != NarrowTop {
		panic("qgemm: panels packed for −127…127 before the AVX2 kernel was chosen")
	}
}

// panels computes the columns of panels j0 to j1 (exclusive) of C, panel
// by panel, every row tile for each (the panel stays in cache).
func panels(c []float32, ldc int, a *Quant, b *Panels, bias []float32, j0, j1 int) {
	for j := j0; j < j1; j++ {
		panel(c[j*Width:], ldc, a, b, bias, j)
	}
}

// MatMulGrouped is MatMulParallel with C stored in groups of g columns (g
// a positive multiple of Width that divides B.N): columns t·g to t·g+g-1
// are an M × g matrix of their own at c[t·M·g:], row stride g. Each head
// of attention then finds its queries, keys or values contiguous. The
// values are those MatMul computes, bit for bit; only their places differ.
func MatMulGrouped(c []float32, g int, a *Quant, b *Panels, bias []float32, workers int) {
	prepare(a, b, bias)
	if g <= 0 || g%Width != 0 || b.N%g != 0 {
		panic(fmt.Sprintf("qgemm: groups of %d columns in %d: not a multiple of %d dividing it", g, b.N, Width))
	}
	m := a.M
	parallel.Split(b.N/Width, workers, func(j0, j1 int) {
		for j := j0; j < j1; j++ {
			col := j * Width
			panel(c[col/g*m*g+col%g:], g, a, b, bias, j)
		}
	})
}

// panel computes the Width columns of panel j of C for every row of a: C's
// row i, column j·Width+n, at c[i*ldc+n].
func panel(c []float32, ldc int, a *Quant, b *Panels, bias []float32, j int) {
	m := a.M
	full := m - m%Rows
	pw := b.Kp * Width
	var tile [Rows * Width]float32
	data := b.Data[j*pw : (j+1)*pw]
	col := j * Width
	if full > 0 {
		blocks(a, full, data, b, col, bias, c, ldc)
	}
	if full < m {
		block(a, full, data, b, col, bias, tile[:], Width)
		for r := 0; r < m-full; r++ {
			copy(c[(full+r)*ldc:(full+r)*ldc+Width], tile[r*Width:(r+1)*Width])
		}
	}
}

// blockGo is the portable kernel: the 12 × 32 tile of C at rows i… and
// columns col… (panel is that column's panel).
func blockGo(a *Quant, i int, panel []int8, b *Panels, col int, bias []float32, c []float32, ldc int) {
	_ = c[(Rows-1)*ldc+Width-1]
	for r := 0; r < Rows; r++ {
		row := a.Data[(i+r)*a.Kp : (i+r+1)*a.Kp]
		for n := 0; n < Width; n++ {
			var acc int32
			for k := 0; k < a.Kp; k++ {
				acc += int32(row[k]) * int32(panel[(k/group)*Width*group+n*group+k%group])
			}
			cn := col + n
			c[r*ldc+n] = float32(acc)*b.Scale[cn]*a.Scale[i+r] + b.CSum[cn]*a.Min[i+r] + bias[cn]
		}
	}
}
