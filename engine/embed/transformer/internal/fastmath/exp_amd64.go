package fastmath

import "golang.org/x/sys/cpu"

var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// exp8 computes x[i] = e^x[i] for n floats, n a multiple of 8.
//
//go:noescape
func exp8(x *float32, n int)
