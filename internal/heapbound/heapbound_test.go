package heapbound

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestHoldSetsAndLiftsTheLimit(t *testing.T) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Fatal("the test process has a memory limit of its own (GOMEMLIMIT)")
	}
	r1 := Hold(100 << 20)
	l1 := debug.SetMemoryLimit(-1)
	r2 := Hold(50 << 20)
	if l2 := debug.SetMemoryLimit(-1); l2 != l1+50<<20 {
		t.Errorf("two holders: limit %d, want %d", l2, l1+50<<20)
	}
	r1()
	r1() // a second release does nothing
	if l := debug.SetMemoryLimit(-1); l != l1-50<<20 {
		t.Errorf("one holder left: limit %d, want %d", l, l1-50<<20)
	}
	r2()
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("no holder: limit %d, want none", l)
	}
}

func TestHoldKeepsTheProcesssOwnLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	release := Hold(100 << 20)
	if l := debug.SetMemoryLimit(-1); l != 1<<40 {
		t.Errorf("limit %d, want the process's own", l)
	}
	release()
	if l := debug.SetMemoryLimit(-1); l != 1<<40 {
		t.Errorf("after release: limit %d, want the process's own", l)
	}
}
