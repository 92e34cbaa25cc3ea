//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// rsswrapSupported says whether internal/rsswrap (fork, exec, wait4) runs here.
const rsswrapSupported = true

// maxRSSKB returns the child's peak resident set size in KiB. Linux reports
// ru_maxrss in KiB, macOS in bytes. Only the fallback path uses it: on Linux
// the figure includes the harness's own high-water mark (see proc.go).
func maxRSSKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}
