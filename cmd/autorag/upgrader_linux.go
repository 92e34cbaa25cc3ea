package main

import "syscall"

// childAttr makes a background upgrader die with the watch that started
// it (SIGTERM when its parent thread ends); a resumed watch starts it again.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM} }
