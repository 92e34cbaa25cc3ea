package gemm

import (
	"fmt"
	"sync"

	"github.com/autorag/autorag/engine/embed/transformer/internal/parallel"
)

// Width is the number of columns of one panel.
const Width = 16

// rows is the number of rows of A the kernel takes at once.
const rows = 6

// Panels is a K×N matrix B packed for MatMul: N/Width panels, each K rows
// of Width consecutive floats.
type Panels struct {
	K, N int
	Data []float32
}

// NewPanels returns zeroed panels for a K×N matrix; N must be a multiple
// of Width.
func NewPanels(k, n int) *Panels {
	if n%Width != 0 || k <= 0 {
		panic(fmt.Sprintf("gemm: panels of %d×%d: N must be a positive multiple of %d", k, n, Width))
	}
	return &Panels{K: k, N: n, Data: make([]float32, k*n)}
}

// Set stores B[k][n] = v.
func (p *Panels) Set(k, n int, v float32) {
	p.Data[(n/Width)*p.K*Width+k*Width+n%Width] = v
}

// PackRows packs B = Wᵀ where W is N×K row-major (a torch Linear weight,
// out × in): B[k][n] = W[n][k].
func PackRows(w []float32, n, k int) *Panels {
	p := NewPanels(k, n)
	PackRowsInto(p, 0, w, n, k)
	return p
}

// PackCols packs B = W where W is K×N row-major (an ONNX MatMul weight,
// in × out).
func PackCols(w []float32, k, n int) *Panels {
	p := NewPanels(k, n)
	PackColsInto(p, 0, w, k, n)
	return p
}

// PackRowsInto packs Wᵀ (W: n × K, row-major) into p's columns col to
// col+n; col and n are multiples of Width.
func PackRowsInto(p *Panels, col int, w []float32, n, k int) {
	for j := 0; j < n; j++ {
		c := col + j
		base := (c/Width)*p.K*Width + c%Width
		for kk, v := range w[j*k : j*k+k] {
			p.Data[base+kk*Width] = v
		}
	}
}

// PackColsInto packs W (K × n, row-major) into p's columns col to col+n;
// col and n are multiples of Width. Each run of Width values of a row of W
// is one contiguous run of a panel.
func PackColsInto(p *Panels, col int, w []float32, k, n int) {
	for kk := 0; kk < k; kk++ {
		row := w[kk*n : kk*n+n]
		for j := 0; j < n; j += Width {
			dst := ((col+j)/Width)*p.K*Width + kk*Width
			copy(p.Data[dst:dst+Width], row[j:j+Width])
		}
	}
}

// MatMul computes C = A·B for m rows: A[i][·] = a[i*lda : i*lda+B.K] and
// C[i][·] = c[i*ldc : i*ldc+B.N]. C is overwritten.
func MatMul(c []float32, ldc int, a []float32, lda int, m int, b *Panels) {
	panels(c, ldc, a, lda, m, b, 0, b.N/Width)
}

// MatMulParallel is MatMul with the panels shared out among workers
// goroutines: for one short sequence (a query), where there is no other
// sequence to give the other cores.
func MatMulParallel(c []float32, ldc int, a []float32, lda int, m int, b *Panels, workers int) {
	parallel.Split(b.N/Width, workers, func(j0, j1 int) { panels(c, ldc, a, lda, m, b, j0, j1) })
}

// panels computes the columns of panels j0 to j1 (exclusive) of C.
func panels(c []float32, ldc int, a []float32, lda int, m int, b *Panels, j0, j1 int) {
	k := b.K
	full := m - m%rows
	// Panel by panel, all rows for each: one panel (k × 16 floats) stays
	// in the core's first-level cache while the rows of A stream from the
	// second level.
	for j := j0; j < j1; j++ {
		panel := b.Data[j*k*Width : (j+1)*k*Width]
		for i := 0; i < full; i += rows {
			block(k, a[i*lda:], lda, panel, c[i*ldc+j*Width:], ldc)
		}
	}
	if full == m {
		return
	}
	// The last rows go through a zero-padded copy, so the kernel always
	// takes six rows.
	tail := m - full
	buf := scratch.Get().(*[]float32)
	defer scratch.Put(buf)
	if cap(*buf) < rows*(k+Width) {
		*buf = make([]float32, rows*(k+Width))
	}
	sa, sc := (*buf)[:rows*k], (*buf)[rows*k:rows*(k+Width)]
	clear(sa[tail*k:]) // rows past the tail: zeros, whatever the last use left
	for r := 0; r < tail; r++ {
		copy(sa[r*k:r*k+k], a[(full+r)*lda:(full+r)*lda+k])
	}
	for j := j0; j < j1; j++ {
		block(k, sa, k, b.Data[j*k*Width:(j+1)*k*Width], sc, Width)
		for r := 0; r < tail; r++ {
			copy(c[(full+r)*ldc+j*Width:(full+r)*ldc+j*Width+Width], sc[r*Width:r*Width+Width])
		}
	}
}

// scratch holds the zero-padded copies of the last rows: allocating them
// for every product kept the garbage collector, and its preemption of the
// workers, busy.
var scratch = sync.Pool{New: func() any { return new([]float32) }}

// blockGo is the portable kernel: C[6][16] = A[6][k] · panel[k][16].
func blockGo(k int, a []float32, lda int, b []float32, c []float32, ldc int) {
	checkBlock(k, a, lda, b, c, ldc)
	var acc [rows][Width]float32
	for kk := 0; kk < k; kk++ {
		bp := b[kk*Width : kk*Width+Width]
		for r := 0; r < rows; r++ {
			av := a[r*lda+kk]
			for j, bv := range bp {
				acc[r][j] += av * bv
			}
		}
	}
	for r := 0; r < rows; r++ {
		copy(c[r*ldc:r*ldc+Width], acc[r][:])
	}
}

// checkBlock panics (an index out of range) unless every element a kernel
// call touches lies inside its slices: the assembly kernel has no checks.
func checkBlock(k int, a []float32, lda int, b []float32, c []float32, ldc int) {
	_ = a[(rows-1)*lda+k-1]
	_ = b[k*Width-1]
	_ = c[(rows-1)*ldc+Width-1]
}

// Reset makes p a zeroed K×N matrix, reusing its storage when it is large
// enough (attention repacks its keys and values for every head).
func (p *Panels) Reset(k, n int) {
	if n%Width != 0 || k <= 0 {
		panic(fmt.Sprintf("gemm: panels of %d×%d: N must be a positive multiple of %d", k, n, Width))
	}
	p.K, p.N = k, n
	if cap(p.Data) < k*n {
		p.Data = make([]float32, k*n)
		return
	}
	p.Data = p.Data[:k*n]
	clear(p.Data)
}
