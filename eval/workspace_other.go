//go:build !unix

package eval

import (
	"fmt"
	"io/fs"
)

const (
	noFollow = 0
	nonBlock = 0
)

// ownedPrivate checks that fi (a directory) is closed to other users as
// far as its mode tells.
func ownedPrivate(fi fs.FileInfo) error {
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("open to other users (mode %v)", fi.Mode().Perm())
	}
	return nil
}
