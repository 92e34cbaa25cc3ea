//go:build !unix

package syntax

import "os"

// readCopy reads the file at path.
func readCopy(path string) ([]byte, func(), error) {
	b, err := os.ReadFile(path)
	return b, func() {}, err
}
