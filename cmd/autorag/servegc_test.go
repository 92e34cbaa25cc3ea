package main

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

// TestServerHeapFloor: a server's collector waits for at least twice the
// floor of heap, unless the user set GOGC.
func TestServerHeapFloor(t *testing.T) {
	t.Setenv("GOGC", "50")
	if raiseHeapFloor() {
		t.Fatal("GOGC=50 in the environment: the floor was raised anyway")
	}
	t.Setenv("GOGC", "")
	if !raiseHeapFloor() || len(ballast) != serverHeapFloor {
		t.Fatalf("no GOGC: the floor was not raised (%d bytes)", len(ballast))
	}
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	if goal := s[0].Value.Uint64(); goal < 2*serverHeapFloor {
		t.Fatalf("heap goal %d bytes after a collection, want at least %d", goal, 2*serverHeapFloor)
	}
}
