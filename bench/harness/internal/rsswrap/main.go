//go:build unix

// Command rsswrap runs one program and reports its wall time and peak RSS.
// The benchmark harness starts every measured process through it because a
// child's ru_maxrss on Linux includes the address space it was forked from
// (the high-water mark of the pre-exec memory survives execve): measured
// directly from the harness, every child would look at least as big as the
// harness. rsswrap is small, so the floor it adds is its own few MB.
//
//	rsswrap PROGRAM [ARG...]
//
// PROGRAM must be a path (the harness resolves it); it runs in rsswrap's
// working directory and environment, with stdin, stdout and stderr passed
// through. When the program has exited, rsswrap writes one line of JSON to
// file descriptor 3 (stderr when fd 3 is not open):
//
//	{"wall_ns":1234567,"maxrss_kb":3456,"exit":0,"signal":0}
//
// wall_ns runs from just before the fork to wait4 returning, so rsswrap's own
// start-up is not counted; maxrss_kb is the child's ru_maxrss in KiB. rsswrap
// exits with the child's exit code (128+N when it was killed by signal N).
// If the program cannot be started the line is {"error":"..."} and the exit
// code is 127. SIGTERM and SIGHUP are forwarded to the child; SIGINT and
// SIGQUIT are left to the terminal, which sends them to the child too.
//
// It depends on nothing outside the standard library so that the harness can
// build it from its embedded source in a module of its own.
package main

import (
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

const reportFD = 3

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(argv []string) int {
	if len(argv) == 0 {
		report(`{"error":"usage: rsswrap PROGRAM [ARG...]"}`)
		return 2
	}
	// The report descriptor is for rsswrap alone: without close-on-exec the
	// child (and anything it leaves running) would hold the harness's pipe
	// open.
	syscall.CloseOnExec(reportFD)

	// Handlers (not SIG_IGN, which would be inherited across exec) so the
	// wrapper outlives an interrupt and still reports how the child ended.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP)
	pids := make(chan int, 1)
	go forward(sigs, pids)

	attr := &syscall.ProcAttr{Env: syscall.Environ(), Files: []uintptr{0, 1, 2}}
	start := time.Now()
	pid, err := syscall.ForkExec(argv[0], argv, attr)
	if err != nil {
		report(`{"error":` + strconv.Quote("start "+argv[0]+": "+err.Error()) + `}`)
		return 127
	}
	pids <- pid
	var status syscall.WaitStatus
	var ru syscall.Rusage
	for {
		_, err = syscall.Wait4(pid, &status, 0, &ru)
		if err != syscall.EINTR {
			break
		}
	}
	wall := time.Since(start)
	if err != nil {
		report(`{"error":` + strconv.Quote("wait: "+err.Error()) + `}`)
		return 127
	}
	maxrss := int64(ru.Maxrss)
	if runtime.GOOS == "darwin" {
		maxrss /= 1024 // bytes there, KiB on Linux and the BSDs
	}
	code, sig := status.ExitStatus(), 0
	if status.Signaled() {
		sig = int(status.Signal())
		code = 128 + sig
	}
	report(`{"wall_ns":` + strconv.FormatInt(int64(wall), 10) +
		`,"maxrss_kb":` + strconv.FormatInt(maxrss, 10) +
		`,"exit":` + strconv.Itoa(status.ExitStatus()) +
		`,"signal":` + strconv.Itoa(sig) + `}`)
	return code
}

// forward passes SIGTERM and SIGHUP on to the child once it is running.
func forward(sigs <-chan os.Signal, pids <-chan int) {
	pid := 0
	for s := range sigs {
		if s != syscall.SIGTERM && s != syscall.SIGHUP {
			continue
		}
		if pid == 0 {
			pid = <-pids
		}
		_ = syscall.Kill(pid, s.(syscall.Signal))
	}
}

// report writes line to fd 3, or to stderr when fd 3 is not open.
func report(line string) {
	b := []byte(line + "\n")
	if _, err := syscall.Write(reportFD, b); err != nil {
		_, _ = os.Stderr.Write(b)
	}
}
