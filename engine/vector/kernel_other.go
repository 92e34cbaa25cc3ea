//go:build !amd64

package vector

// kernels lists the kernels this CPU can run: the portable one.
func kernels() []kernel { return []kernel{{"go", dotsGo}} }

// dots computes out[i] = row i of codes · q (see dotsGo).
var dots = dotsGo
