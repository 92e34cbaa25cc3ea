package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelsAgree checks that the kernel the CPU runs (AVX-512 VNNI where
// present) computes exactly what the portable one does, on random codes,
// the extreme codes and every stride the package uses.
func TestKernelsAgree(t *testing.T) {
	if !hasVNNI {
		t.Log("no AVX-512 VNNI: dots is dotsGo itself")
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for _, dims := range []int{1, 63, 64, 100, 128, 256, 384, 768, 1536} {
		stride := codeStride(dims)
		for _, n := range []int{0, 1, 3, block} {
			codes := make([]byte, n*stride)
			q := make([]int8, stride)
			for i := range codes {
				codes[i] = byte(rng.IntN(256))
			}
			for i := range q {
				q[i] = int8(rng.IntN(255) - 127)
			}
			if n > 0 { // the extremes: every product at its largest magnitude
				for j := range stride {
					codes[j], q[j] = 255, -127
				}
			}
			got, want := make([]int32, n), make([]int32, n)
			dots(codes, q, stride, got)
			dotsGo(codes, q, stride, want)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("dims %d n %d row %d: kernel %d, portable %d", dims, n, i, got[i], want[i])
				}
			}
			if n > 0 {
				var ref int32
				for j := range stride {
					ref += int32(codes[j]) * int32(q[j])
				}
				if want[0] != ref {
					t.Fatalf("dims %d: portable %d, reference %d", dims, want[0], ref)
				}
			}
		}
	}
}

// TestQuantizeRoundTrip bounds the error of a stored code and checks the
// score the scan derives from codes against the float32 dot product.
func TestQuantizeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dims := range []int{5, 100, 384} {
		v, q := randUnit(rng, dims), randUnit(rng, dims)
		code := make([]byte, codeStride(dims))
		s := quantize(v, code)
		for i, x := range v {
			if d := math.Abs(float64(x) - float64(s)*float64(int(code[i])-codeZero)); d > float64(s)/2+1e-7 {
				t.Fatalf("dims %d: component %d off by %g (scale %g)", dims, i, d, s)
			}
		}
		for i := dims; i < len(code); i++ {
			if code[i] != codeZero {
				t.Fatalf("dims %d: padding code %d is %d", dims, i, code[i])
			}
		}
		qq := quantizeQuery(q)
		out := make([]int32, 1)
		dots(code, qq.codes, len(qq.codes), out)
		approx := float32(out[0]-qq.bias) * s * qq.scale
		if exact := dot(q, v); math.Abs(float64(approx-exact)) > 0.02 {
			t.Fatalf("dims %d: approximate score %g, exact %g", dims, approx, exact)
		}
	}
	zero := make([]byte, 64)
	if s := quantize(make([]float32, 10), zero); s != 0 || zero[0] != codeZero {
		t.Fatalf("zero vector: scale %g, code %d", s, zero[0])
	}
}

func BenchmarkKernels(b *testing.B) {
	const dims, n = 384, block
	codes, q := make([]byte, n*dims), make([]int8, dims)
	out := make([]int32, n)
	b.Run("kernel", func(b *testing.B) {
		b.SetBytes(int64(len(codes)))
		for b.Loop() {
			dots(codes, q, dims, out)
		}
	})
	b.Run("portable", func(b *testing.B) {
		b.SetBytes(int64(len(codes)))
		for b.Loop() {
			dotsGo(codes, q, dims, out)
		}
	})
}
