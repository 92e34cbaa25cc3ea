package main

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
		if got := ndcg(judged, c.ranked, c.k); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ndcg(%v, k=%d) = %.6f, want %.6f", c.ranked, c.k, got, c.want)
		}
	}
	if got := ndcg(map[string]int{"a": 0}, []string{"a"}, 10); got != 0 {
		t.Errorf("no positive judgment: %g", got)
	}
	qrels := map[string]map[string]int{"q1": {"a": 1}, "q2": {"b": 1}}
	if got := meanNDCG(qrels, map[string][]string{"q1": {"a"}}, 10); got != 0.5 {
		t.Errorf("meanNDCG with a missing run = %g, want 0.5", got)
	}
}

func TestTopK(t *testing.T) {
	q := []float32{1, 0}
	vs := [][]float32{{0.1, 0}, {0.9, 0}, {0.5, 0}, {0.9, 0}, {-1, 0}}
	got := topK(q, vs, 3)
	want := []int{1, 3, 2}
	for i := range want {
		if len(got) != len(want) || got[i] != want[i] {
			t.Fatalf("topK = %v, want %v", got, want)
		}
	}
}
