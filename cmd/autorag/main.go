// Command autorag is a local search engine for a folder of documents and
// code: BM25 over a bleve index, kept fresh incrementally, safe to run from
// many processes at once. See README.md for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
