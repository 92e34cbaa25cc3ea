package syntax

import (
	"context"

	"github.com/tetratelabs/wazero/experimental"
)

// withMemory is ctx with the allocator of instances' linear memories: on
// Linux, memory mapped outside the Go heap (mappedMemory), elsewhere
// wazero's own (a Go slice). wazero's grows by append, so each growth past
// the slice's capacity allocates and zeroes a new buffer and copies the
// whole memory (the 28 MB of parse tables and more) into it, and the old
// buffer stays in the heap until a collection; a mapping reserves the
// largest memory (memoryPages) once, the kernel gives zeroed pages as they
// are touched, and the memory never moves and is unmapped when the
// instance closes. img, when the module's data were split off it
// (loadModule), is the memory's first bytes: mapped from its file,
// copy-on-write, so that its pages are shared with every other instance
// and process and made only as read. failed is set when a memory could
// not be given the image: the instance must not serve.
func withMemory(ctx context.Context, img *image, failed *bool) context.Context {
	if a := memoryAllocator(img, failed); a != nil {
		return experimental.WithMemoryAllocator(ctx, a)
	}
	return ctx
}

// heapMemory is a linear memory in the Go heap, grown as wazero grows
// its own: what mappedMemory falls back to when the mapping fails.
type heapMemory struct{ buf []byte }

func (m *heapMemory) Reallocate(size uint64) []byte {
	if size > uint64(cap(m.buf)) {
		m.buf = append(m.buf[:cap(m.buf)], make([]byte, size-uint64(cap(m.buf)))...)
	}
	m.buf = m.buf[:size]
	return m.buf
}

func (m *heapMemory) Free() { m.buf = nil }

var _ experimental.LinearMemory = (*heapMemory)(nil)
