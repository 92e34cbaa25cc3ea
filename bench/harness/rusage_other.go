//go:build !unix

package main

import "os"

// rsswrapSupported says whether internal/rsswrap (fork, exec, wait4) runs here.
const rsswrapSupported = false

// maxRSSKB is not available without getrusage; peak RSS is reported as 0.
func maxRSSKB(*os.ProcessState) int64 { return 0 }
