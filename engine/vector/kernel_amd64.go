package vector

import "golang.org/x/sys/cpu"

// hasVNNI: the AVX-512 VNNI kernel (kernel_amd64.s) needs AVX-512 F, BW
// and VL for its loads and masks and VNNI for VPDPBUSD.
var hasVNNI = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VNNI

// dotsVNNI is dotsGo in AVX-512 VNNI: stride is a multiple of 32, n >= 0.
//
//go:noescape
func dotsVNNI(codes *byte, q *int8, stride, n int, out *int32)

// dots computes out[i] = row i of codes · q (see dotsGo) with the fastest
// kernel the CPU has.
func dots(codes []byte, q []int8, stride int, out []int32) {
	if hasVNNI && len(out) > 0 {
		_ = codes[len(out)*stride-1]
		_ = q[2*stride-1]
		dotsVNNI(&codes[0], &q[0], stride, len(out), &out[0])
		return
	}
	dotsGo(codes, q, stride, out)
}
