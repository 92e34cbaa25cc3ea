//go:build !unix

package mirror

import (
	"fmt"
	"os"
)

// openSource opens a source file for reading; only regular files are
// returned (see open_unix.go for the symlink and FIFO guards).
func openSource(p string) (*os.File, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	return os.Open(p)
}
