package main

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// pca is a fitted projection: x ↦ (x − mean) · components.
type pca struct {
	mean       []float64
	components *mat.Dense // in × dims, the top eigenvectors as columns
	explained  float64    // share of the variance the kept components carry
}

// fitPCA fits the top dims principal components of xs, as sklearn's PCA
// does (centred, no whitening).
func fitPCA(xs [][]float32, dims int) (*pca, error) {
	n, in := len(xs), len(xs[0])
	if dims < 1 || dims > in {
		return nil, fmt.Errorf("-dims %d: want 1 to the teacher's %d", dims, in)
	}
	mean := make([]float64, in)
	for _, x := range xs {
		for j, v := range x {
			mean[j] += float64(v)
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	c := make([]float64, n*in)
	for i, x := range xs {
		for j, v := range x {
			c[i*in+j] = float64(v) - mean[j]
		}
	}
	centred := mat.NewDense(n, in, c)
	var cov mat.SymDense
	cov.SymOuterK(1/float64(n-1), centred.T())
	var eig mat.EigenSym
	if !eig.Factorize(&cov, true) {
		return nil, fmt.Errorf("PCA: eigendecomposition did not converge")
	}
	vals := eig.Values(nil) // ascending
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	comp := mat.NewDense(in, dims, nil)
	var total, kept float64
	for _, v := range vals {
		total += v
	}
	for k := range dims {
		src := in - 1 - k
		kept += vals[src]
		col := mat.Col(nil, src, &vecs)
		// A fixed sign (largest entry positive) makes the output
		// reproducible whatever the solver's sign choice.
		var big float64
		for _, v := range col {
			if math.Abs(v) > math.Abs(big) {
				big = v
			}
		}
		if big < 0 {
			for i := range col {
				col[i] = -col[i]
			}
		}
		comp.SetCol(k, col)
	}
	return &pca{mean: mean, components: comp, explained: kept / total}, nil
}

// project maps every x to its dims coordinates.
func (p *pca) project(xs [][]float32) [][]float32 {
	in, dims := p.components.Dims()
	out := make([][]float32, len(xs))
	row := make([]float64, in)
	var y mat.VecDense
	for i, x := range xs {
		for j, v := range x {
			row[j] = float64(v) - p.mean[j]
		}
		y.MulVec(p.components.T(), mat.NewVecDense(in, row))
		out[i] = make([]float32, dims)
		for k := range dims {
			out[i][k] = float32(y.AtVec(k))
		}
	}
	return out
}

// rankWeights is the weight of each row by its rank in the vocabulary
// (token ids are roughly by frequency in a WordPiece vocabulary).
func rankWeights(n int, kind string, a float64) ([]float64, error) {
	w := make([]float64, n)
	switch kind {
	case "none":
		for i := range w {
			w[i] = 1
		}
	case "zipf": // model2vec's apply_zipf
		for i := range w {
			w[i] = math.Log(1 + float64(i))
		}
	case "sif": // model2vec's sif_coefficient: p(rank) from Zipf's law
		var z float64
		for i := range w {
			z += 1 / float64(i+2)
		}
		for i := range w {
			p := 1 / float64(i+2) / z
			w[i] = a / (a + p)
		}
	default:
		return nil, fmt.Errorf("-weight %q: want sif, zipf or none", kind)
	}
	return w, nil
}

func scaleRows(rows [][]float32, w []float64) {
	for i, r := range rows {
		for d := range r {
			r[d] *= float32(w[i])
		}
	}
}
