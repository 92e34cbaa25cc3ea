//go:build unix

package mirror

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// openSource opens a source file for reading without following a symlink
// in its last component (one swapped in after the walk is refused, ELOOP)
// and without blocking (a FIFO or device swapped in is refused after the
// open instead of hanging it). Only regular files are returned.
func openSource(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, errors.New("became a symlink after the walk (not followed)")
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	return f, nil
}
