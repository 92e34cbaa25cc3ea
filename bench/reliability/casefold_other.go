//go:build !linux

package main

// caseInsensitive needs Linux's FUSE to serve its case-insensitive file
// system: elsewhere the row is skipped.
func (h *harness) caseInsensitive() outcome {
	return outcome{Scenario: "path entries × traps on a case-insensitive file system (FUSE)", Skipped: "needs Linux FUSE"}
}
