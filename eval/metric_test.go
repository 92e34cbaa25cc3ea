package eval

import (
	"math"
	"testing"
)

func TestNDCG(t *testing.T) {
	judged := map[string]int{"a": 2, "b": 1, "c": 0}
	cases := []struct {
		ranked []string
		k      int
		want   float64
	}{
		{[]string{"a", "b"}, 10, 1},
		{[]string{"b", "a"}, 10, (1 + 2/math.Log2(3)) / (2 + 1/math.Log2(3))},
		{[]string{"x", "a", "b"}, 10, (2/math.Log2(3) + 1/math.Log2(4)) / (2 + 1/math.Log2(3))},
		{[]string{"c", "x"}, 10, 0},
		{[]string{"x", "a"}, 1, 0},
		{nil, 10, 0},
	}
	for _, c := range cases {
		if got := NDCG(judged, c.ranked, c.k); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("NDCG(%v, k=%d) = %.6f, want %.6f", c.ranked, c.k, got, c.want)
		}
	}
	if got := NDCG(map[string]int{"a": 0}, []string{"a"}, 10); got != 0 {
		t.Errorf("no positive judgment: %g", got)
	}
}

func TestRecallAndMRR(t *testing.T) {
	judged := map[string]int{"a": 2, "b": 1, "c": 0, "d": 1}
	ranked := []string{"x", "c", "b", "y", "a"}
	if got := Recall(judged, ranked, 100); math.Abs(got-2.0/3) > 1e-12 {
		t.Errorf("Recall@100 = %g, want 2/3 (c has grade 0, d is not retrieved)", got)
	}
	if got := Recall(judged, ranked, 3); math.Abs(got-1.0/3) > 1e-12 {
		t.Errorf("Recall@3 = %g, want 1/3", got)
	}
	if got := MRR(judged, ranked, 10); got != 1.0/3 {
		t.Errorf("MRR@10 = %g, want 1/3 (c at rank 2 has grade 0)", got)
	}
	if got := MRR(judged, ranked, 2); got != 0 {
		t.Errorf("MRR@2 = %g, want 0", got)
	}
}

func TestScoreCountsMissingRuns(t *testing.T) {
	qrels := Qrels{"q1": {"a": 1}, "q2": {"b": 1}}
	s := Score(qrels, map[string][]string{"q1": {"a"}})
	if s.NDCG10 != 0.5 || s.Recall100 != 0.5 || s.MRR10 != 0.5 {
		t.Errorf("Score with a missing run = %+v, want 0.5 each", s)
	}
}

func TestFileName(t *testing.T) {
	for id, want := range map[string]string{
		"MED-10": "MED-10", "a/b": "a%2Fb", ".hidden": "%2Ehidden", "x y": "x%20y", "": "%", "v1.2": "v1.2",
	} {
		if got := FileName(id); got != want {
			t.Errorf("FileName(%q) = %q, want %q", id, got, want)
		}
	}
}
