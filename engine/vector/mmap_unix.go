//go:build unix

package vector

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the first size bytes of f read-only and shared: the page
// cache is the segment's only copy.
func mapFile(f *os.File, size int) ([]byte, error) {
	return unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
}

func unmapFile(b []byte) error { return unix.Munmap(b) }

// adviseRandomPages asks for no readahead on b, whole pages of a mapping.
func adviseRandomPages(b []byte) { _ = unix.Madvise(b, unix.MADV_RANDOM) }
