package qgemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// kernelCase is one kernel: the settings of useAsm and useAVX2 that select
// it, and of narrow (B's bytes in −NarrowTop…NarrowTop, as the AVX2
// kernel needs).
type kernelCase struct {
	name              string
	asm, avx2, narrow bool
}

var portable = kernelCase{name: "go"}

// kernels lists every kernel this CPU runs, the portable one first.
func kernels() []kernelCase {
	ks := []kernelCase{portable}
	if useAVX2 {
		ks = append(ks, kernelCase{name: "avx2", avx2: true, narrow: true})
	}
	if useAsm {
		ks = append(ks, kernelCase{name: "avx512-vnni", asm: true, avx2: useAVX2})
	}
	return ks
}

// oracle is the portable kernel on the bytes k multiplies.
func oracle(k kernelCase) kernelCase {
	return kernelCase{name: "go", narrow: k.narrow}
}

// with runs f with k selected (panels packed inside f are packed for it).
func with(k kernelCase, f func()) {
	asm, avx2, nar := useAsm, useAVX2, narrow
	defer func() { useAsm, useAVX2, narrow = asm, avx2, nar }()
	useAsm, useAVX2, narrow = k.asm, k.avx2, k.narrow
	f()
}

// TestKernelsAgree holds every kernel the CPU runs to the portable one on
// the same bytes: the integer sums are the same, so only the float
// epilogue's rounding differs (the portable kernel does not fuse its
// multiply-add). The assembly kernels share their epilogue, so on the
// same (narrow) bytes they agree bit for bit.
func TestKernelsAgree(t *testing.T) {
	ks := kernels()
	t.Logf("kernels: %v", ks)
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range shapes {
		a, w, bias := random(r, s.m*s.k, -2, 3), random(r, s.n*s.k, -1, 1), random(r, s.n, -1, 1)
		for _, k := range ks[1:] {
			var got, want []float32
			with(k, func() { got = product(a, s.m, s.k, w, s.n, bias) })
			with(oracle(k), func() { want = product(a, s.m, s.k, w, s.n, bias) })
			for i := range want {
				if d := math.Abs(float64(got[i] - want[i])); d > 1e-4*(1+math.Abs(float64(want[i]))) {
					t.Fatalf("%+v: kernel %s: c[%d] = %g, portable kernel %g", s, k.name, i, got[i], want[i])
				}
			}
			if k.name != "avx2" || !useAsm {
				continue
			}
			var vnni []float32
			with(kernelCase{asm: true, avx2: true, narrow: true}, func() { vnni = product(a, s.m, s.k, w, s.n, bias) })
			for i := range got {
				if got[i] != vnni[i] {
					t.Fatalf("%+v: kernel avx2: c[%d] = %g, the VNNI kernel on its bytes %g", s, i, got[i], vnni[i])
				}
			}
		}
	}
}

// TestNarrowBytes: under the AVX2 kernel B's bytes stay within −64…64,
// whichever way they are packed; the other kernels use −127…127.
func TestNarrowBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for _, k := range kernels() {
		with(k, func() {
			for _, n := range []int{5, 16, 40, 384} {
				w := random(r, 64*n, -3, 7)
				rows, cols := NewPanels(n, 64), NewPanels(n, 64)
				PackInto(rows, 0, w, 64, 64, 1, 1) // rows contiguous
				PackInto(cols, 0, w, 64, 1, n, 1)  // columns contiguous
				want := map[bool]int{true: NarrowTop, false: FullTop}[k.narrow]
				for _, p := range []*Panels{rows, cols} {
					top := 0
					for _, v := range p.Data {
						top = max(top, int(v), -int(v))
					}
					if top != want || p.Top() != want {
						t.Fatalf("kernel %s, k=%d: largest byte %d, Top %d, want %d", k.name, n, top, p.Top(), want)
					}
				}
			}
		})
	}
}

// TestWideBytesRefused: bytes packed in −127…127 would saturate the AVX2
// kernel's sums; MatMul refuses them.
func TestWideBytesRefused(t *testing.T) {
	var q Quant
	Quantize(&q, make([]float32, 4*32), 32, 4, 32)
	var p *Panels
	with(portable, func() { p = NewPanels(32, 32) })
	defer func() {
		if recover() == nil {
			t.Fatal("MatMul multiplied panels of −127…127 with the AVX2 kernel")
		}
	}()
	with(kernelCase{avx2: true, narrow: true}, func() { MatMul(make([]float32, 4*32), 32, &q, p, make([]float32, 32)) })
}

// TestKernelSumsExact gives every kernel unit scales, so C is the integer
// sum itself, on random bytes and on the extremes (A all 255, B all at
// −Top or Top: every pair of products at its largest magnitude), for K up
// to 512 (the sums stay exact in float32).
func TestKernelSumsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, k := range kernels() {
		for _, s := range []struct{ m, k, n int }{{12, 4, 32}, {25, 36, 64}, {12, 512, 32}, {96, 32, 64}} {
			for _, extreme := range []int{0, -1, 1} {
				with(k, func() { checkExactSums(t, k.name, r, s.m, s.k, s.n, extreme) })
			}
		}
	}
}

// checkExactSums multiplies random bytes (extreme 0) or A all 255 and B
// all extreme·Top.
func checkExactSums(t *testing.T, name string, r *rand.Rand, m, k, n int, extreme int) {
	var q Quant
	q.Reset(m, k)
	for i := range m {
		row := q.RowBytes(i)
		for j := range row {
			row[j] = uint8(r.IntN(256))
			if extreme != 0 {
				row[j] = 255
			}
		}
		q.SetScale(i, 1, 0)
	}
	p := NewPanels(k, n)
	bs := make([]int8, k*n)
	for kk := range k {
		for j := range n {
			v := int8(r.IntN(2*p.Top()+1) - p.Top())
			if extreme != 0 {
				v = int8(extreme * p.Top())
			}
			bs[kk*n+j] = v
			p.Data[p.offset(kk, j)] = v
		}
	}
	for j := range n {
		p.Scale[j] = 1
	}
	c := make([]float32, m*n)
	MatMul(c, n, &q, p, make([]float32, n))
	for i := range m {
		for j := range n {
			var want int32
			for kk := range k {
				want += int32(q.Data[i*q.Kp+kk]) * int32(bs[kk*n+j])
			}
			if c[i*n+j] != float32(want) {
				t.Fatalf("kernel %s, %d×%d×%d (extreme %d): c[%d][%d] = %g, want %d", name, m, k, n, extreme, i, j, c[i*n+j], want)
			}
		}
	}
}

// BenchmarkMatMulShapes: the encoder's dense products at 512 tokens
// (hidden 384, intermediate 1536) and attention's two per head (d = 32),
// for each kernel, in GOP per CPU-second.
func BenchmarkMatMulShapes(b *testing.B) {
	for _, k := range kernels()[1:] {
		for _, s := range []struct{ m, k, n int }{{512, 384, 1152}, {512, 384, 1536}, {512, 1536, 384}, {96, 32, 512}, {96, 512, 32}} {
			b.Run(fmt.Sprintf("%s/%dx%dx%d", k.name, s.m, s.k, s.n), func(b *testing.B) {
				with(k, func() { benchShape(b, s.m, s.k, s.n) })
			})
		}
	}
}

func benchShape(b *testing.B, m, k, n int) {
	r := rand.New(rand.NewPCG(41, 42))
	a, w := random(r, m*k, -1, 1), random(r, n*k, -1, 1)
	p := NewPanels(k, n)
	PackInto(p, 0, w, n, 1, k, 1)
	var q Quant
	Quantize(&q, a, k, m, k)
	c, bias := make([]float32, m*n), make([]float32, n)
	cpu0 := cpuTime()
	for b.Loop() {
		MatMul(c, n, &q, p, bias)
	}
	b.ReportMetric(float64(2*m*k*n)*float64(b.N)/(cpuTime()-cpu0).Seconds()/1e9, "GOP/cpu-s")
}
