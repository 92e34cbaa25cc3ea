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
