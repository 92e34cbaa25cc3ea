//go:build !unix

// Command rsswrap needs fork, exec and wait4; see main.go.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "rsswrap: not supported on this system")
	os.Exit(2)
}
