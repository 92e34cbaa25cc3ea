package vector

import "golang.org/x/sys/cpu"

// useDotRowsAVX2 is vek32.Dot's own test for its AVX2 kernel, so that
// dotRows sums as dot does on every CPU.
var useDotRowsAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotRowsAVX2 is dotRows in assembly (dotrows_amd64.s): d >= 1, n >= 0.
//
//go:noescape
func dotRowsAVX2(q *float32, rows *float32, d, n int, out *float32)

func dotRowsAsm(q, rows, out []float32) bool {
	if !useDotRowsAVX2 {
		return false
	}
	dotRowsAVX2(&q[0], &rows[0], len(q), len(out), &out[0])
	return true
}
