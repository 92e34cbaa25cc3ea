//go:build !unix

package vector

import (
	"fmt"
	"io"
	"os"
)

// mapFile reads the first size bytes of f into memory where the unix
// mapping calls do not exist (Windows): the segment is then a heap copy,
// which Go allocates aligned for the float32 views parseSegment takes.
func mapFile(f *os.File, size int) ([]byte, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	return b, nil
}

func unmapFile([]byte) error { return nil }

func adviseRandomPages([]byte) {}
