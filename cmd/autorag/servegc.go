package main

import (
	"os"
	"sync"
)

// serverHeapFloor is the heap a long-running server keeps as headroom
// before its next collection: a search allocates about 200 KB while the
// live heap of a server of one 10,000-chunk root is about 3 MB, so with
// the default GOGC the collector ran every twenty searches, 7-9 % of an
// uncached MCP search's CPU (docs/BENCHMARKS.md, "Process start and MCP,
// third round").
const serverHeapFloor = 16 << 20

var (
	ballastOnce sync.Once
	ballast     []byte // kept reachable: the collector counts it as live heap
)

// raiseHeapFloor makes the collector of a server (mcp, serve) run when
// the heap reaches about twice the live data plus 2 × serverHeapFloor,
// instead of twice the live data: a constant floor, not a factor, so a
// server whose live heap is large (a full query cache) grows by the same
// bounded amount. The floor is a pointer-free allocation that the
// collector never scans and the program never writes: taken early from
// fresh memory, it adds no resident pages. A GOGC in the environment is
// the user's choice and is kept.
func raiseHeapFloor() bool {
	if os.Getenv("GOGC") != "" {
		return false
	}
	ballastOnce.Do(func() { ballast = make([]byte, serverHeapFloor) })
	return true
}
