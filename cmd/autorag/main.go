// Command autorag is a local search engine for a folder of documents and
// code: BM25 over a bleve index, kept fresh incrementally, safe to run from
// many processes at once. See README.md for the commands.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

func main() {
	if versionOnly(os.Args[1:]) {
		// No signal handler (its goroutine and thread) to answer the call
		// scripts make most to see that the binary works.
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfile := startProfile(os.Getenv("AUTORAG_CPUPROFILE"))
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stopProfile()
	stop()
	os.Exit(code)
}

// startProfile writes a CPU profile of the whole command to path when set
// (AUTORAG_CPUPROFILE), for `go tool pprof`.
func startProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "autorag: cpu profile: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "autorag: cpu profile: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
