package fastmath

import (
	"fmt"
	"math"
	"testing"
)

// kernels are the combinations of vector kernels a machine may run.
var kernels = []struct{ avx2, avx512 bool }{{false, false}, {true, false}, {true, true}}

// withKernels runs f under every combination this CPU supports.
func withKernels(t *testing.T, f func(t *testing.T)) {
	saved2, saved512 := useAsm, useAVX512
	defer func() { useAsm, useAVX512 = saved2, saved512 }()
	for _, k := range kernels {
		if (k.avx2 && !saved2) || (k.avx512 && !saved512) {
			continue
		}
		useAsm, useAVX512 = k.avx2, k.avx512
		t.Run(fmt.Sprintf("avx2=%v,avx512=%v", k.avx2, k.avx512), f)
	}
}

func TestAccuracy(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		asm := useAsm
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
	})
}

// TestSoftmaxBytes checks the bytes against the definition, for lengths
// with and without a partial last vector.
func TestSoftmaxBytes(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		for _, n := range []int{1, 7, 16, 31, 32, 100, 512} {
			x := make([]float32, n)
			for j := range x {
				x[j] = float32(math.Sin(float64(j)*1.7)*6 - 2)
			}
			m := x[0]
			for _, v := range x {
				m = max(m, v)
			}
			dst := make([]uint8, n+1)
			dst[n] = 77 // past the end: must stay
			want := 0
			for _, v := range x {
				q := math.RoundToEven(255 * math.Exp(float64(v-m)))
				want += int(q)
			}
			in := append([]float32(nil), x...)
			sum := SoftmaxBytes(dst[:n], in)
			got := 0
			for j := 0; j < n; j++ {
				q := math.RoundToEven(255 * math.Exp(float64(x[j]-m)))
				if math.Abs(float64(dst[j])-q) > 1 {
					t.Fatalf("n=%d: byte %d = %d, want %g", n, j, dst[j], q)
				}
				got += int(dst[j])
			}
			if sum != got || dst[n] != 77 || math.Abs(float64(sum-want)) > float64(n) {
				t.Fatalf("n=%d: sum %d, bytes sum to %d (exact %d), byte past the end %d", n, sum, got, want, dst[n])
			}
		}
	})
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

// TestLayerNorm compares LayerNorm with its definition in float64, with a
// residual and without, on rows with an offset (the mean matters).
func TestLayerNorm(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		for _, n := range []int{8, 16, 20, 24, 384} {
			x, res, g, b := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
			for j := range x {
				x[j] = float32(math.Sin(float64(j))*3 + 5)
				res[j] = float32(math.Cos(float64(j)*0.3) - 1)
				g[j] = float32(1 + 0.01*float64(j%7))
				b[j] = float32(0.1 * float64(j%3))
			}
			for _, r := range [][]float32{nil, res} {
				v := make([]float64, n)
				var mean, vr float64
				for j := range v {
					v[j] = float64(x[j])
					if r != nil {
						v[j] += float64(r[j])
					}
					mean += v[j] / float64(n)
				}
				for _, e := range v {
					vr += (e - mean) * (e - mean) / float64(n)
				}
				got := append([]float32(nil), x...)
				LayerNorm(got, r, g, b, 1e-12)
				for j := range v {
					want := (v[j]-mean)/math.Sqrt(vr+1e-12)*float64(g[j]) + float64(b[j])
					if math.Abs(float64(got[j])-want) > 2e-5 {
						t.Fatalf("n=%d residual=%v: [%d] = %g, want %g", n, r != nil, j, got[j], want)
					}
				}
			}
		}
	})
}
