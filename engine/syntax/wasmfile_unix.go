//go:build unix

package syntax

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// readCopy maps the file at path read-only. Copies are replaced by a
// rename (writeCopy), never rewritten in place, so the mapped file does
// not change under the mapping.
func readCopy(path string) ([]byte, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() <= 0 || st.Size() > 1<<30 {
		return nil, nil, errors.New("tree-sitter module copy: bad size")
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { _ = unix.Munmap(b) }, nil
}
