//go:build unix

package memfault

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// truncatedMapping maps a file of two pages and truncates it to nothing:
// reading the mapping then raises SIGBUS.
func truncatedMapping(t *testing.T) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "seg")
	size := 2 * os.Getpagesize()
	if err := os.WriteFile(p, make([]byte, size), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(b) })
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	return b
}

// sink keeps the reads of sum from being optimized away.
var sink int

func sum(b []byte) {
	for _, c := range b {
		sink += int(c)
	}
}

func TestGuardTurnsAFaultIntoAnError(t *testing.T) {
	b := truncatedMapping(t)
	err := Guard(func() error { sum(b); return nil })
	if !errors.Is(err, ErrFault) {
		t.Fatalf("Guard over a truncated mapping: %v", err)
	}
	if err := Guard(func() error { return os.ErrClosed }); err != os.ErrClosed {
		t.Fatalf("Guard's own error: %v", err)
	}
}

func TestGroupHandsAWorkersFaultToTheWaiter(t *testing.T) {
	b := truncatedMapping(t)
	err := Guard(func() error {
		var g Group
		g.Go(func() {})
		g.Go(func() { sum(b) })
		g.Wait()
		return nil
	})
	if !errors.Is(err, ErrFault) {
		t.Fatalf("a worker's fault: %v", err)
	}
}

func TestGuardLetsOtherPanicsGoOn(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v", r)
		}
	}()
	_ = Guard(func() error {
		var g Group
		g.Go(func() { panic("boom") })
		g.Wait()
		return nil
	})
}
