package main

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// ridge is the regularization of the least-squares map.
const ridge = 1e-3

// mapped carries the teacher's passage vectors into the space of rows
// that were not distilled from it (-init): the least-squares linear map
// from the teacher's centred vectors to the rows' centred passage means,
// fitted on the same passages (ridge-regularized). The targets are the
// mapped vectors, centred and normalized, so the refinement moves the
// rows only where the teacher sees the passages otherwise.
func mapped(raw, rows [][]float32, seqs [][]int) ([][]float32, error) {
	n, in, out := len(raw), len(raw[0]), len(rows[0])
	x := mat.NewDense(n, in, nil)
	y := mat.NewDense(n, out, nil)
	s := make([]float32, out)
	for i := range n {
		for j, v := range raw[i] {
			x.Set(i, j, float64(v))
		}
		if len(seqs[i]) == 0 {
			continue
		}
		mean(rows, seqs[i], s)
		normalize(s)
		for j, v := range s {
			y.Set(i, j, float64(v))
		}
	}
	centreCols(x)
	centreCols(y)
	var xtx mat.Dense
	xtx.Mul(x.T(), x)
	for j := range in {
		xtx.Set(j, j, xtx.At(j, j)+ridge*float64(n))
	}
	var xty, a mat.Dense
	xty.Mul(x.T(), y)
	if err := a.Solve(&xtx, &xty); err != nil {
		return nil, fmt.Errorf("map the teacher's vectors: %w", err)
	}
	var p mat.Dense
	p.Mul(x, &a)
	ts := make([][]float32, n)
	for i := range ts {
		ts[i] = make([]float32, out)
		for j := range ts[i] {
			ts[i][j] = float32(p.At(i, j))
		}
	}
	return centred(ts), nil
}

func centreCols(m *mat.Dense) {
	r, c := m.Dims()
	for j := range c {
		var sum float64
		for i := range r {
			sum += m.At(i, j)
		}
		for i := range r {
			m.Set(i, j, m.At(i, j)-sum/float64(r))
		}
	}
}
