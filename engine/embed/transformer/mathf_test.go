package transformer

import (
	"math"
	"testing"
)

func TestMathf(t *testing.T) {
	for x := -90.0; x <= 88; x += 0.0137 {
		got, want := float64(expf(float32(x))), math.Exp(float64(float32(x)))
		if want > 1e-37 && math.Abs(got-want)/want > 5e-7 {
			t.Fatalf("expf(%g) = %g, want %g", x, got, want)
		}
	}
	for x := -6.0; x <= 6; x += 0.00113 {
		got, want := float64(erff(float32(x))), math.Erf(float64(float32(x)))
		if math.Abs(got-want) > 5e-7 {
			t.Fatalf("erff(%g) = %g, want %g", x, got, want)
		}
	}
	if expf(-100) != 0 || expf(-87.5) != 0 {
		t.Fatal("expf of a very negative number is not 0")
	}
}
