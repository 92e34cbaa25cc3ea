package syntax

import "testing"

// heapMemory, the fallback when a mapping fails, keeps its bytes as it
// grows and serves sizes within its capacity without moving.
func TestHeapMemoryGrows(t *testing.T) {
	m := &heapMemory{buf: make([]byte, 0, 4)}
	b := m.Reallocate(2)
	copy(b, "ab")
	if b = m.Reallocate(3); len(b) != 3 || string(b[:2]) != "ab" {
		t.Fatalf("within capacity: %q", b)
	}
	b = m.Reallocate(100)
	if len(b) != 100 || string(b[:2]) != "ab" || b[99] != 0 {
		t.Fatalf("past capacity: len %d, %q", len(b), b[:3])
	}
	m.Free()
	if m.buf != nil {
		t.Fatal("Free kept the buffer")
	}
}
