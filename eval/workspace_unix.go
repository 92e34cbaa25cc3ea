//go:build unix

package eval

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// noFollow and nonBlock: a symlink in the last component is not followed,
// a FIFO does not block the open.
const (
	noFollow = syscall.O_NOFOLLOW
	nonBlock = syscall.O_NONBLOCK
)

// ownedPrivate checks that fi (a directory) is this user's and closed to
// every other.
func ownedPrivate(fi fs.FileInfo) error {
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("open to other users (mode %v)", fi.Mode().Perm())
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("owned by uid %d, not by this user", st.Uid)
	}
	return nil
}
