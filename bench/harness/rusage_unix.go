//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSSKB returns the child's peak resident set size in KiB. Linux reports
// ru_maxrss in KiB, macOS in bytes.
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
