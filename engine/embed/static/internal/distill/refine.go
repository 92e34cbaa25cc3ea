package main

import (
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"

	"github.com/autorag/autorag/engine/embed/wordpiece"
)

// heldOut is the share of passages kept out of the fit to choose when to
// stop (the mean cosine to the teacher on them).
const heldOut = 20

// refine fits the rows, tokenlearn-style: the teacher embeds each passage
// (its own pooling and prefix), the vector is projected by the same PCA,
// centred on the passages' mean (as tokenlearn's PCA of the targets does:
// the direction all passages share says nothing about any one of them)
// and normalized; SGD on 1 − cos(mean of the passage's rows, target)
// moves the rows of its tokens. The epoch with the best held-out cosine is
// kept. PyTorch is not at hand: the gradient is written out here.
func refine(t *teacher, o options, p *pca, vocab []byte, rows [][]float32, log io.Writer) ([][]float32, error) {
	texts, err := readPassages(o.corpus, o.maxDocs)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	for _, s := range texts {
		h.Write([]byte(s))
	}
	raw, err := cached(o.cache, fmt.Sprintf("%s-texts-%d-%x.f32", o.teacher, o.maxLen, h.Sum64()), func() ([][]float32, error) {
		return t.textVectors(texts, o.maxLen, log)
	})
	if err != nil {
		return nil, err
	}
	v, err := wordpiece.OpenVocab(string(vocab))
	if err != nil {
		return nil, err
	}
	tok, err := wordpiece.New(v, wordpiece.BERT())
	if err != nil {
		return nil, err
	}
	seqs := make([][]int, len(texts))
	for i, s := range texts {
		for _, id := range tok.Append(nil, s) {
			if id != tok.Unknown() {
				seqs[i] = append(seqs[i], id)
			}
		}
	}
	var targets [][]float32
	if o.init == "" {
		targets = centred(p.project(raw))
	} else if targets, err = mapped(raw, rows, seqs); err != nil {
		return nil, err
	}
	nVal := len(texts) / heldOut
	val, train := seqs[:nVal], seqs[nVal:]
	yVal, yTrain := targets[:nVal], targets[nVal:]
	best, bestCos := clone(rows), meanCos(rows, val, yVal)
	fmt.Fprintf(log, "distill: refine on %d passages, held-out cosine %.4f before\n", len(train), bestCos)
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	r := rand.New(rand.NewPCG(1, 2))
	g := make([]float32, len(rows[0]))
	for ep := range o.epochs {
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			step(rows, train[i], yTrain[i], g, float32(o.lr), o.relative)
		}
		c := meanCos(rows, val, yVal)
		fmt.Fprintf(log, "distill: epoch %d: held-out cosine %.4f\n", ep+1, c)
		if c > bestCos {
			best, bestCos = clone(rows), c
		}
	}
	return best, nil
}

// step is one SGD step on 1 − cos(s, y), s the mean of ids' rows (y is a
// unit vector): ∂/∂s = −(y − cos·ŝ)/|s|, and each occurrence of a token
// gets 1/len(ids) of it. The step is lr times that gradient (-step
// plain) or lr·|s|² times it (-step relative).
func step(rows [][]float32, ids []int, y, g []float32, lr float32, relative bool) {
	if len(ids) == 0 {
		return
	}
	s := mean(rows, ids, g)
	n := norm(s)
	if n == 0 {
		return
	}
	var c float32
	for d := range s {
		c += s[d] * y[d]
	}
	c /= n
	k := lr / (n * float32(len(ids)))
	if relative {
		// Scaled by |s|²: lr is then the relative change of s, whatever
		// the rows' length (potion-base-8M's rows are about 100 long),
		// but |s| grows with each step, so a large lr diverges.
		k = lr * n / float32(len(ids))
	}
	for d := range g {
		g[d] = k * (y[d] - c*s[d]/n) // the descent direction, scaled
	}
	for _, id := range ids {
		r := rows[id]
		for d := range r {
			r[d] += g[d]
		}
	}
}

// mean writes the mean of ids' rows into dst and returns it.
func mean(rows [][]float32, ids []int, dst []float32) []float32 {
	clear(dst)
	for _, id := range ids {
		for d, x := range rows[id] {
			dst[d] += x
		}
	}
	inv := 1 / float32(len(ids))
	for d := range dst {
		dst[d] *= inv
	}
	return dst
}

func meanCos(rows [][]float32, seqs [][]int, ys [][]float32) float64 {
	s := make([]float32, len(rows[0]))
	var sum float64
	for i, ids := range seqs {
		if len(ids) == 0 {
			continue
		}
		mean(rows, ids, s)
		n := norm(s)
		if n == 0 {
			continue
		}
		var c float32
		for d := range s {
			c += s[d] * ys[i][d]
		}
		sum += float64(c / n)
	}
	return sum / float64(len(seqs))
}

func norm(v []float32) float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return float32(math.Sqrt(s))
}

func normalize(v []float32) {
	if n := norm(v); n > 0 {
		for i := range v {
			v[i] /= n
		}
	}
}

func clone(rows [][]float32) [][]float32 {
	out := make([][]float32, len(rows))
	for i, r := range rows {
		out[i] = append([]float32(nil), r...)
	}
	return out
}

// centred subtracts the vectors' mean from each and normalizes it.
func centred(ys [][]float32) [][]float32 {
	m := make([]float64, len(ys[0]))
	for _, y := range ys {
		for d, x := range y {
			m[d] += float64(x)
		}
	}
	for _, y := range ys {
		for d := range y {
			y[d] -= float32(m[d] / float64(len(ys)))
		}
		normalize(y)
	}
	return ys
}
