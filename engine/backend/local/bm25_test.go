package local

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

func TestBM25MatchesLuceneFormula(t *testing.T) {
	m := bm25{n: 1000, avgdl: 100, k1: 0.9, b: 0.4}
	idf := m.idf(10)
	if want := math.Log(1 + (1000-10+0.5)/(10+0.5)); math.Abs(idf-want) > 1e-12 {
		t.Fatalf("idf = %v, want %v", idf, want)
	}
	// A document of average length: tf(k1+1)/(tf+k1).
	if got, want := m.weight(idf, 3, 100), idf*3*1.9/(3+0.9); math.Abs(got-want) > 1e-12 {
		t.Fatalf("weight = %v, want %v", got, want)
	}
	// Longer documents score lower, more occurrences score higher.
	if m.weight(idf, 3, 400) >= m.weight(idf, 3, 100) {
		t.Error("a longer document did not score lower")
	}
	if m.weight(idf, 4, 100) <= m.weight(idf, 3, 100) {
		t.Error("a higher term frequency did not score higher")
	}
	// A term in every document still contributes a little, never negative.
	if w := m.weight(m.idf(1000), 1, 100); w <= 0 {
		t.Errorf("weight of a ubiquitous term = %v, want > 0", w)
	}
}

func TestLengthFromNorm(t *testing.T) {
	for _, n := range []int{1, 2, 7, 100, 1234, 65535, 200000} {
		norm := float64(float32(1 / math.Sqrt(float64(n))))
		if got := lengthFromNorm(norm); got != n {
			t.Errorf("lengthFromNorm(norm(%d)) = %d", n, got)
		}
	}
}

// TestSelectTop checks the quickselect against a full sort, with many ties.
func TestSelectTop(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for trial := 0; trial < 500; trial++ {
		n := 1 + r.IntN(300)
		h := make([]hit, n)
		for i := range h {
			h[i] = hit{num: uint64(i), score: float64(r.IntN(20))}
		}
		m := 1 + r.IntN(n)
		want := append([]hit(nil), h...)
		sort.Slice(want, func(i, j int) bool { return want[i].score > want[j].score })
		selectTop(h, m)
		front := append([]hit(nil), h[:m]...)
		sort.Slice(front, func(i, j int) bool { return front[i].score > front[j].score })
		for i := 0; i < m; i++ {
			if front[i].score != want[i].score {
				t.Fatalf("n=%d m=%d: front[%d] = %v, want %v", n, m, i, front[i].score, want[i].score)
			}
		}
		if h[m-1].score != want[m-1].score {
			t.Fatalf("n=%d m=%d: h[m-1] = %v, want the front's minimum %v", n, m, h[m-1].score, want[m-1].score)
		}
	}
}
