//go:build !unix

package main

import "os"

// maxRSSKB is not available without getrusage; peak RSS is reported as 0.
func maxRSSKB(*os.ProcessState) int64 { return 0 }
