//go:build !linux

package main

// filesystemType is only implemented on Linux.
func filesystemType(string) string { return "unknown" }
