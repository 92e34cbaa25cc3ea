// Package heapbound keeps the heap of a process near what its running
// work needs. Go's collector lets the heap grow to twice what is live
// (GOGC=100) before it runs again: a refresh whose live heap peaks at
// 100 MiB reached an RSS of 300 MiB. While a job holds a share, the
// process has a soft memory limit (debug.SetMemoryLimit) of the heap in
// use when the first holder began plus every holder's share, so the
// collector runs sooner rather than let the heap double; the limit goes
// when the last holder lets go. A process with a limit of its own
// (GOMEMLIMIT) keeps it untouched.
//
// It imports nothing of autorag's.
package heapbound

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
)

var (
	mu      sync.Mutex
	shares  int64 // of the holders now
	base    int64 // heap in use when the first holder began
	ownSet  bool  // the process had a limit of its own at the first hold
	holders int
)

// Hold adds share bytes to the process's soft memory limit until the
// returned release is called (once).
func Hold(share int64) (release func()) {
	mu.Lock()
	defer mu.Unlock()
	if holders == 0 {
		ownSet = debug.SetMemoryLimit(-1) != math.MaxInt64
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base = int64(ms.HeapInuse)
	}
	holders++
	shares += share
	set()
	var once sync.Once
	return func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			holders--
			shares -= share
			set()
		})
	}
}

// set applies the limit of the holders now; the caller holds mu.
func set() {
	switch {
	case ownSet:
	case holders == 0:
		debug.SetMemoryLimit(math.MaxInt64)
	default:
		debug.SetMemoryLimit(base + shares)
	}
}
