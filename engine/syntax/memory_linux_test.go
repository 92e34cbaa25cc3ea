package syntax

import (
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
