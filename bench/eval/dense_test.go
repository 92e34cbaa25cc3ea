package main

import "testing"

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
