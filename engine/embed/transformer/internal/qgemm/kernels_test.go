package qgemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// kernelCase is one kernel: the settings of useAsm and useAVX2 that select it.
type kernelCase struct {
	name      string
	asm, avx2 bool
}

var portable = kernelCase{name: "go"}

// kernels lists every kernel this CPU runs, the portable one first.
func kernels() []kernelCase {
	ks := []kernelCase{portable}
	if useAVX2 {
		ks = append(ks, kernelCase{name: "avx2", avx2: true})
	}
	if useAsm {
		ks = append(ks, kernelCase{name: "avx512-vnni", asm: true, avx2: useAVX2})
	}
	return ks
}

// with runs f with k selected (panels packed inside f are packed for it).
func with(k kernelCase, f func()) {
	asm, avx2 := useAsm, useAVX2
	defer func() { useAsm, useAVX2 = asm, avx2 }()
	useAsm, useAVX2 = k.asm, k.avx2
	f()
}

// TestKernelsAgree holds every kernel the CPU runs to the portable one:
// the integer sums are the same, so only the float epilogue's rounding
// differs (the portable kernel does not fuse its multiply-add); the
// assembly kernels share their epilogue, so they agree bit for bit.
func TestKernelsAgree(t *testing.T) {
	ks := kernels()
	t.Logf("kernels: %v", ks)
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range shapes {
		a, w, bias := random(r, s.m*s.k, -2, 3), random(r, s.n*s.k, -1, 1), random(r, s.n, -1, 1)
		var want, asm []float32
		for _, k := range ks {
			var got []float32
			with(k, func() { got = product(a, s.m, s.k, w, s.n, bias) })
			if k == portable {
				want = got
				continue
			}
			for i := range want {
				if d := math.Abs(float64(got[i] - want[i])); d > 1e-4*(1+math.Abs(float64(want[i]))) {
					t.Fatalf("%+v: kernel %s: c[%d] = %g, portable kernel %g", s, k.name, i, got[i], want[i])
				}
			}
			for i := range asm {
				if got[i] != asm[i] {
					t.Fatalf("%+v: kernel %s: c[%d] = %g, the other assembly kernel %g", s, k.name, i, got[i], asm[i])
				}
			}
			asm = got
		}
	}
}

// TestKernelSumsExact gives every kernel unit scales, so C is the integer
// sum itself, on random bytes and on the extremes (A all 255, B all −127
// or 127: every pair of products at its largest magnitude), for K up to
// 512 (the sums stay exact in float32).
func TestKernelSumsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, k := range kernels() {
		for _, s := range []struct{ m, k, n int }{{12, 4, 32}, {25, 36, 64}, {12, 512, 32}} {
			for _, extreme := range []int8{0, -127, 127} {
				with(k, func() { checkExactSums(t, k.name, r, s.m, s.k, s.n, extreme) })
			}
		}
	}
}

func checkExactSums(t *testing.T, name string, r *rand.Rand, m, k, n int, extreme int8) {
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
			v := int8(r.IntN(255) - 127)
			if extreme != 0 {
				v = extreme
			}
			bs[kk*n+j] = v
			p.Data[p.offset(kk, j)] = v
		}
	}
	for j := range n {
		p.Scale[j] = 1
	}
	if wideKernel() {
		widenPanels(p, 0, n)
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
