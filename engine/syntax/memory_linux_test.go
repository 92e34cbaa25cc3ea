package syntax

import (
	"bytes"
	"path/filepath"
	"testing"
	"unsafe"
)

// On Linux an instance's memory is a mapping: a parse that grows it
// leaves it where it was (so the cancel word armed before the call stays
// the module's), and closing the instance unmaps it.
func TestMemoryMappedDoesNotMove(t *testing.T) {
	ctx, in := testInstance(t)
	defer in.close(ctx)
	base := func() uintptr {
		b, ok := in.mod.Memory().Read(0, 1)
		if !ok {
			t.Fatal("memory unreadable")
		}
		return uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	}
	before, size := base(), in.memoryBytes()
	if _, _, _, err := parseIn(ctx, in, "python", bigPython()); err != nil {
		t.Fatal(err)
	}
	if in.memoryBytes() <= size {
		t.Fatalf("memory %d bytes after a parse of %d KiB, %d before: did not grow", in.memoryBytes(), MaxBytes>>10, size)
	}
	if after := base(); after != before {
		t.Fatalf("memory moved from %#x to %#x when it grew", before, after)
	}
}

// A memory given the image maps it at its start, copy-on-write: writes
// stay in the memory, the file keeps its bytes; where the memory is a Go
// slice instead the image is read into it, and an image that cannot be
// read is reported.
func TestMemoryHoldsImage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.split")
	data := bytes.Repeat([]byte("tables"), pageSize)
	data = append(data, make([]byte, 3*pageSize-len(data)%pageSize)...)
	if err := writeSplit(path, []byte("code"), data); err != nil {
		t.Fatal(err)
	}
	_, img, err := openSplit(path)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := newMappedMemory(img, 0, 32*pageSize)
	if _, mapped := m.(*mappedMemory); !ok || !mapped {
		t.Fatalf("memory %T, ok %v: want a mapping", m, ok)
	}
	buf := m.Reallocate(16 * pageSize)
	if !bytes.Equal(buf[:len(data)], data) || bytes.Count(buf[len(data):], []byte{0}) != len(buf)-len(data) {
		t.Fatal("mapped memory does not start with the image, zeros after")
	}
	buf[0] = 'X'
	m.Free()
	if _, again, err := openSplit(path); err != nil {
		t.Fatalf("image file changed by a write to the memory: %v", err)
	} else {
		again.f.Close()
	}
	h, ok := heapWithImage(img, 0)
	if !ok || !bytes.Equal(h.Reallocate(16 * pageSize)[:len(data)], data) {
		t.Fatal("heap memory does not start with the image")
	}
	img.f.Close()
	if _, ok := heapWithImage(img, 0); ok {
		t.Fatal("image of a closed file read")
	}
}
