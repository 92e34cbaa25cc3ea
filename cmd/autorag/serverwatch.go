package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/watch"
)

// withWatcher runs serve, and with --watch the watcher beside it on the
// server's own Service, so the index the server answers from stays live.
// Ticks go to stderr (stdout may be the MCP stream): errors always, every
// tick as a JSON line with -v. When serve returns, the watcher is stopped
// (its tick in flight finishes within --grace or is abandoned uncommitted)
// before withWatcher returns.
func withWatcher(ctx context.Context, g *globals, o *serverOptions, api *agentapi.API, serve func(context.Context) error) error {
	if !o.watch {
		return serve(ctx)
	}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- watch.Run(wctx, api.Service(), watch.Options{
			Debounce:  o.debounce,
			Reconcile: watch.DefaultReconcile,
			Idle:      watch.DefaultIdle,
			Grace:     watch.DefaultGrace,
			Command:   commandLine(),
			OnTick:    func(t watch.Tick) { logTick(g, t) },
			OnNotice:  func(s string) { fmt.Fprintf(g.stderr, "autorag: watch: %s\n", s) },
		})
	}()
	err := serve(ctx)
	stop()
	if werr := <-done; werr != nil && err == nil && ctx.Err() == nil {
		err = fmt.Errorf("watch: %w", werr)
	}
	return err
}

// logTick reports a watcher tick of a server on stderr.
func logTick(g *globals, t watch.Tick) {
	if t.Err == nil && !g.verbose {
		return
	}
	b, err := json.Marshal(struct {
		Watch tickLine `json:"watch"`
	}{toLine(t)})
	if err != nil {
		return
	}
	fmt.Fprintf(g.stderr, "%s\n", b)
}
