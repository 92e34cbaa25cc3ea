package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelsAgree checks that every kernel the CPU runs (AVX-512 VNNI,
// AVX2) computes exactly what the portable one does, on random codes, the
// extreme codes and every stride the package uses.
func TestKernelsAgree(t *testing.T) {
	ks := kernels()
	t.Logf("kernels: %v", ks)
	rng := rand.New(rand.NewPCG(7, 7))
	for _, dims := range []int{1, 63, 64, 100, 128, 256, 384, 768, 1536} {
		stride := codeStride(dims)
		for _, n := range []int{0, 1, 3, block} {
			codes := make([]byte, n*stride)
			q := make([]int8, 2*stride)
			for i := range codes {
				codes[i] = byte(rng.IntN(256))
			}
			for i := range q {
				q[i] = int8(rng.IntN(255) - 127)
			}
			if n > 0 { // the extremes: every product at its largest magnitude
				for j := range stride {
					codes[j] = 0xff
				}
				for j := range q {
					q[j] = -127
				}
			}
			want := make([]int32, n)
			dotsGo(codes, q, stride, want)
			for _, k := range ks {
				got := make([]int32, n)
				k.fn(codes, q, stride, got)
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("dims %d n %d row %d: kernel %s %d, portable %d", dims, n, i, k.name, got[i], want[i])
					}
				}
			}
			if n > 0 {
				var ref int32
				for j := range q {
					ref += int32(nibble(codes[:stride], j)) * int32(q[j])
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
		var bound float64 // |q·v − q̂·v̂| ≤ Σ|q|·s/2 + Σ|v̂|·qs/2
		qq := quantizeQuery(q)
		for i, x := range v {
			c := float64(s) * float64(nibble(code, i)-codeZero)
			if d := math.Abs(float64(x) - c); d > float64(s)/2+1e-7 {
				t.Fatalf("dims %d: component %d off by %g (scale %g)", dims, i, d, s)
			}
			bound += math.Abs(float64(q[i]))*float64(s)/2 + math.Abs(c)*float64(qq.scale)/2
		}
		for i := dims; i < 2*len(code); i++ {
			if nibble(code, i) != codeZero {
				t.Fatalf("dims %d: padding code %d is %d", dims, i, nibble(code, i))
			}
		}
		out := make([]int32, 1)
		dots(code, qq.codes, len(code), out)
		approx := float32(out[0]-qq.bias) * s * qq.scale
		if exact := dot(q, v); math.Abs(float64(approx-exact)) > bound+1e-5 {
			t.Fatalf("dims %d: approximate score %g, exact %g, bound %g", dims, approx, exact, bound)
		}
	}
	zero := make([]byte, blockBytes)
	if s := quantize(make([]float32, 10), zero); s != 0 || nibble(zero, 0) != codeZero || nibble(zero, 40) != codeZero {
		t.Fatalf("zero vector: scale %g, codes %x", s, zero)
	}
}

func BenchmarkKernels(b *testing.B) {
	const dims, n = 384, block
	stride := codeStride(dims)
	codes, q := make([]byte, n*stride), make([]int8, 2*stride)
	out := make([]int32, n)
	for _, k := range kernels() {
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(int64(len(codes)))
			for b.Loop() {
				k.fn(codes, q, stride, out)
			}
		})
	}
}
