package fastmath

import (
	"math"
	"testing"
)

func TestAccuracy(t *testing.T) {
	for _, asm := range []bool{false, true} {
		if asm && !useAsm {
			continue
		}
		saved := useAsm
		useAsm = asm
		var xs []float32
		for x := -90.0; x <= 88; x += 0.0137 {
			xs = append(xs, float32(x))
		}
		got := append([]float32(nil), xs...)
		Exp(got)
		for i, x := range xs {
			want := math.Exp(float64(max(x, -87)))
			if math.Abs(float64(got[i])-want)/want > 5e-7 {
				t.Fatalf("asm=%v: Exp(%g) = %g, want %g", asm, x, got[i], want)
			}
		}
		xs = xs[:0]
		for x := -8.0; x <= 8; x += 0.00113 {
			xs = append(xs, float32(x))
		}
		got = append(got[:0], xs...)
		GELU(got)
		for i, x := range xs {
			want := float64(x) / 2 * (1 + math.Erf(float64(x)/math.Sqrt2))
			if math.Abs(float64(got[i])-want) > 5e-7*max(1, math.Abs(float64(x))) {
				t.Fatalf("asm=%v: GELU(%g) = %g, want %g", asm, x, got[i], want)
			}
		}
		useAsm = saved
	}
}

func BenchmarkExp(b *testing.B) {
	x := make([]float32, 4096)
	for b.Loop() {
		for i := range x {
			x[i] = float32(i%200) * -0.1
		}
		Exp(x)
	}
}
