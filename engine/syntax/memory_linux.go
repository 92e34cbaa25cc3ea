package syntax

import (
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// mapsImage is whether instances map the image of the module's data
// (loadModule).
const mapsImage = true

// memoryAllocator maps each linear memory (withMemory), img at its start
// when not nil; a memory that could not be given the image sets *failed.
func memoryAllocator(img *image, failed *bool) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(capBytes, maxBytes uint64) experimental.LinearMemory {
		m, ok := newMappedMemory(img, capBytes, maxBytes)
		if !ok {
			*failed = true
		}
		return m
	})
}

// mappedMemory is a linear memory in an anonymous private mapping of its
// largest size, reserved without swap (MAP_NORESERVE): untouched pages
// cost nothing, the slice handed to wazero never moves.
type mappedMemory struct {
	all []byte // the whole mapping
}

// newMappedMemory maps a memory of maxBytes, img over its first bytes: a
// private mapping of the image's file (copy-on-write: the module's
// writes stay in this memory). Where a mapping fails the memory is a Go
// slice, the image read into it; false when the image could not be read
// (the memory then lacks the module's data).
func newMappedMemory(img *image, capBytes, maxBytes uint64) (experimental.LinearMemory, bool) {
	b, err := unix.Mmap(-1, 0, int(maxBytes), unix.PROT_READ|unix.PROT_WRITE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return heapWithImage(img, capBytes)
	}
	if img == nil {
		return &mappedMemory{all: b}, true
	}
	if img.size <= len(b) {
		_, err = unix.MmapPtr(int(img.f.Fd()), pageSize, unsafe.Pointer(&b[0]), uintptr(img.size),
			unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_FIXED)
		if err == nil {
			return &mappedMemory{all: b}, true
		}
	}
	_ = unix.Munmap(b)
	return heapWithImage(img, capBytes)
}

// heapWithImage is a memory in the Go heap holding img (if any) read from
// its file; false when it cannot be read.
func heapWithImage(img *image, capBytes uint64) (experimental.LinearMemory, bool) {
	if img == nil {
		return &heapMemory{buf: make([]byte, 0, capBytes)}, true
	}
	m := &heapMemory{buf: make([]byte, img.size, max(capBytes, uint64(img.size)))}
	return m, img.readInto(m.buf) == nil
}

// Reallocate returns the first size bytes of the mapping, or nil past it
// (the module's memory.grow then fails, as past the limit).
func (m *mappedMemory) Reallocate(size uint64) []byte {
	if m.all == nil || size > uint64(len(m.all)) {
		return nil
	}
	return m.all[:size:size]
}

// Free unmaps the whole memory, the image's pages over it included.
func (m *mappedMemory) Free() {
	if m.all != nil {
		_ = unix.Munmap(m.all)
		m.all = nil
	}
}
