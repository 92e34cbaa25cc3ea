//go:build !linux

package main

import "syscall"

// childAttr: without Pdeathsig, a background upgrader outlives a watch that
// crashed; it finishes (or fails) on its own, and a resumed watch finds it
// holding the upgrade lock.
func childAttr() *syscall.SysProcAttr { return nil }
