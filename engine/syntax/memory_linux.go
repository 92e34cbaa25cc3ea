package syntax

import (
	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// memoryAllocator maps each linear memory (withMemory).
func memoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(newMappedMemory)
}

// mappedMemory is a linear memory in an anonymous private mapping of its
// largest size, reserved without swap (MAP_NORESERVE): untouched pages
// cost nothing, the slice handed to wazero never moves.
type mappedMemory struct {
	all []byte // the whole mapping
}

func newMappedMemory(capBytes, maxBytes uint64) experimental.LinearMemory {
	b, err := unix.Mmap(-1, 0, int(maxBytes), unix.PROT_READ|unix.PROT_WRITE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return &heapMemory{buf: make([]byte, 0, capBytes)}
	}
	return &mappedMemory{all: b}
}

// Reallocate returns the first size bytes of the mapping, or nil past it
// (the module's memory.grow then fails, as past the limit).
func (m *mappedMemory) Reallocate(size uint64) []byte {
	if m.all == nil || size > uint64(len(m.all)) {
		return nil
	}
	return m.all[:size:size]
}

func (m *mappedMemory) Free() {
	if m.all != nil {
		_ = unix.Munmap(m.all)
		m.all = nil
	}
}
