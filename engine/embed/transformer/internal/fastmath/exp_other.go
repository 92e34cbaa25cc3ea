//go:build !amd64

package fastmath

var useAsm = false

func exp8(x *float32, n int) { panic("fastmath: no vector kernel") }
