package fastmath

import (
	"math/rand/v2"
	"testing"
)

// TestMax8 holds max8's four chains and its tail to a plain maximum, with
// the greatest value in every position of lengths around a multiple of 32,
// on CPUs that run it (AVX2 and FMA: the others never call it).
func TestMax8(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		if useAsm {
			checkMax8(t)
		}
	})
}

func checkMax8(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{8, 24, 32, 40, 64, 96, 520} {
		x := make([]float32, n)
		for j := range x {
			x[j] = -50 + 40*r.Float32()
		}
		for at := range n {
			saved := x[at]
			x[at] = 3.5
			if got := max8(&x[0], n); got != 3.5 {
				t.Fatalf("n=%d, greatest at %d: max8 = %g", n, at, got)
			}
			x[at] = saved
		}
	}
}

// TestSoftmaxBytes8Pairs: softmaxBytes8's loop over sixteen floats at a
// time gives the bytes and sum that its eight-float step gives on each
// eight alone (the lanes are independent), at lengths with and without
// a last eight.
func TestSoftmaxBytes8Pairs(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		if useAsm {
			checkSoftmaxPairs(t)
		}
	})
}

func checkSoftmaxPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{8, 16, 24, 512, 520} {
		x := make([]float32, n)
		for j := range x {
			x[j] = -20 + 24*r.Float32()
		}
		m := float32(4.5)
		got := make([]uint8, n)
		sum := softmaxBytes8(&got[0], &x[0], n, m)
		want := make([]uint8, n)
		wantSum := 0
		for j := 0; j < n; j += 8 {
			wantSum += softmaxBytes8(&want[j], &x[j], 8, m)
		}
		if sum != wantSum {
			t.Fatalf("n=%d: sum %d, eight at a time %d", n, sum, wantSum)
		}
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("n=%d: byte %d = %d, eight at a time %d", n, j, got[j], want[j])
			}
		}
	}
}
