package main

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/embed/wordpiece"
)

// TestPCAFindsTheAxes fits points spread mostly along one direction and a
// little along a second: the first component is that direction (up to
// the fixed sign) and the projection keeps the coordinates along it.
func TestPCAFindsTheAxes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	u := []float64{0.6, 0.8, 0}
	w := []float64{0, 0, 1}
	var xs [][]float32
	for range 500 {
		a, b := 10*r.NormFloat64(), r.NormFloat64()
		x := make([]float32, 3)
		for j := range x {
			x[j] = float32(5 + a*u[j] + b*w[j] + 0.01*r.NormFloat64())
		}
		xs = append(xs, x)
	}
	p, err := fitPCA(xs, 2)
	if err != nil {
		t.Fatal(err)
	}
	for j, want := range u {
		if got := p.components.At(j, 0); math.Abs(got-want) > 0.01 {
			t.Errorf("first component[%d] = %.3f, want %.3f", j, got, want)
		}
	}
	if got := math.Abs(p.components.At(2, 1)); got < 0.99 {
		t.Errorf("second component is not the z axis: |z| = %.3f", got)
	}
	if p.explained < 0.99 || p.explained > 1 {
		t.Errorf("explained variance %.4f, want the two axes to carry nearly all", p.explained)
	}
	ys := p.project(xs)
	if len(ys[0]) != 2 {
		t.Fatalf("projected to %d dims", len(ys[0]))
	}
	var dot float64
	for j := range u {
		dot += (float64(xs[0][j]) - p.mean[j]) * u[j]
	}
	if math.Abs(dot-float64(ys[0][0])) > 0.05 {
		t.Errorf("projection %.3f, want %.3f", ys[0][0], dot)
	}
	if _, err := fitPCA(xs, 4); err == nil {
		t.Error("fitPCA to more dims than the input has succeeded")
	}
}

func TestRankWeights(t *testing.T) {
	sif, err := rankWeights(1000, "sif", 1e-4)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(sif); i++ {
		if !(sif[i] > sif[i-1]) || sif[i] >= 1 || sif[i-1] <= 0 {
			t.Fatalf("sif weights not increasing inside (0,1) at rank %d: %g, %g", i, sif[i-1], sif[i])
		}
	}
	zipf, _ := rankWeights(3, "zipf", 0)
	if zipf[0] != 0 || math.Abs(zipf[2]-math.Log(3)) > 1e-12 {
		t.Errorf("zipf weights %v, want log(1+rank)", zipf)
	}
	if _, err := rankWeights(3, "idf", 0); err == nil {
		t.Error("an unknown weighting was accepted")
	}
}

// TestStepMovesTowardsTheTarget: SGD steps on one passage raise its
// cosine to the target, and rows of tokens not in it do not move.
func TestStepMovesTowardsTheTarget(t *testing.T) {
	rows := [][]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	ids := []int{0, 1, 1}
	y := []float32{0, 0.6, 0.8}
	before := meanCos(rows, [][]int{ids}, [][]float32{y})
	g := make([]float32, 3)
	for range 50 {
		step(rows, ids, y, g, 0.1, false)
	}
	after := meanCos(rows, [][]int{ids}, [][]float32{y})
	if !(after > before+0.2) {
		t.Errorf("cosine %.3f before, %.3f after 50 steps: want it raised", before, after)
	}
	if rows[2][0] != 0 || rows[2][1] != 0 || rows[2][2] != 1 {
		t.Errorf("row of an absent token moved: %v", rows[2])
	}
	big := [][]float32{{100, 0, 0}, {0, 100, 0}}
	before = meanCos(big, [][]int{ids}, [][]float32{y})
	for range 50 {
		step(big, ids, y, g, 0.1, true)
	}
	if after := meanCos(big, [][]int{ids}, [][]float32{y}); !(after > before+0.2) {
		t.Errorf("relative steps on rows 100 long: cosine %.3f before, %.3f after", before, after)
	}
}

func TestKeptTokensDropsPlaceholders(t *testing.T) {
	b, err := wordpiece.BuildVocab([]string{"[PAD]", "[unused0]", "[unused17]", "[UNK]", "the", "##s"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := wordpiece.OpenVocab(string(b))
	if err != nil {
		t.Fatal(err)
	}
	got := keptTokens(v)
	if want := []int{0, 3, 4, 5}; len(got) != len(want) || got[0] != 0 || got[1] != 3 || got[3] != 5 {
		t.Errorf("kept %v, want %v", got, want)
	}
}

func TestParagraphs(t *testing.T) {
	text := "---\ntitle: x\n---\n\n" + strings.Repeat("word ", 30) + "\n\n```go\nfunc f() {}\n\nmore code\n```\n\n" + strings.Repeat("other ", 30)
	ps := paragraphs(text)
	if len(ps) != 1 || strings.Contains(ps[0], "func") || !strings.Contains(ps[0], "other") {
		t.Errorf("paragraphs = %q", ps)
	}
}

func TestVectorsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.f32")
	vs := [][]float32{{1, -2}, {0.5, 3}}
	if err := writeVectors(path, vs); err != nil {
		t.Fatal(err)
	}
	got, err := readVectors(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1][0] != 0.5 || got[0][1] != -2 {
		t.Errorf("read %v, want %v", got, vs)
	}
}
