module github.com/zeebo/blake3

go 1.26.0

require (
	github.com/zeebo/assert v1.1.0
	github.com/zeebo/pcg v1.0.1
	golang.org/x/sys v0.50.0
)
