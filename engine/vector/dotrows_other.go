//go:build !amd64

package vector

func dotRowsAsm(q, rows, out []float32) bool { return false }
