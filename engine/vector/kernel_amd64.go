package vector

import "golang.org/x/sys/cpu"

// The kernels of kernel_amd64.s, best first: AVX-512 VNNI (F, BW and VL
// for the loads and masks, VNNI for VPDPBUSD), then AVX2.
var (
	hasVNNI = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VNNI
	hasAVX2 = cpu.X86.HasAVX2
)

// dotsVNNI and dotsAVX2 are dotsGo in assembly: stride is a multiple of
// 32, n >= 0.
//
//go:noescape
func dotsVNNI(codes *byte, q *int8, stride, n int, out *int32)

//go:noescape
func dotsAVX2(codes *byte, q *int8, stride, n int, out *int32)

// kernels lists the kernels this CPU can run, fastest first (the tests
// hold each to dotsGo).
func kernels() []kernel {
	var ks []kernel
	if hasVNNI {
		ks = append(ks, kernel{"vnni", asm(dotsVNNI)})
	}
	if hasAVX2 {
		ks = append(ks, kernel{"avx2", asm(dotsAVX2)})
	}
	return append(ks, kernel{"go", dotsGo})
}

// asm wraps an assembly kernel in the slice signature, with the bounds
// checks the assembly does not do.
func asm(k func(codes *byte, q *int8, stride, n int, out *int32)) func([]byte, []int8, int, []int32) {
	return func(codes []byte, q []int8, stride int, out []int32) {
		if len(out) == 0 {
			return
		}
		_ = codes[len(out)*stride-1]
		_ = q[2*stride-1]
		k(&codes[0], &q[0], stride, len(out), &out[0])
	}
}

// dots computes out[i] = row i of codes · q (see dotsGo) with the fastest
// kernel the CPU has.
var dots = kernels()[0].fn
