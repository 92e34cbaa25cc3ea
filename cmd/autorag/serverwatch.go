package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/watch"
)

// withWatcher runs serve, and with --watch a watcher per root beside it,
// all sharing one pool of --watch-parallel refreshes, so the indexes the
// server answers from stay live. Ticks go to stderr (stdout may be the
// MCP stream): errors always, every tick as a JSON line with -v. A root
// whose watcher cannot start is reported and left unwatched when the
// server has others. When serve returns, the watchers are stopped (each
// tick in flight finishes within --grace or is abandoned uncommitted)
// before withWatcher returns.
func withWatcher(ctx context.Context, g *globals, o *serverOptions, roots []serverRoot, serve func(context.Context) error) error {
	if !o.watch {
		return serve(ctx)
	}
	wctx, stop := context.WithCancel(ctx)
	pool := watch.NewPool(o.watchParallel)
	errs := make([]error, len(roots))
	var wg sync.WaitGroup
	for i, r := range roots {
		if !r.watch {
			continue
		}
		name := r.name
		if len(roots) == 1 {
			name = ""
		}
		wg.Go(func() {
			svc := engine.NewService(r.e, 0) // the watcher only refreshes: nothing is opened
			defer svc.Close()
			up := newBackgroundUpgrader(g, r.e, func(s string) { fmt.Fprintf(g.stderr, "autorag: watch%s: %s\n", prefixed(name), s) })
			defer up.stop()
			errs[i] = watch.Run(wctx, svc, watch.Options{
				Debounce:  cmp.Or(r.debounce, o.debounce),
				Poll:      r.poll,
				Reconcile: watch.DefaultReconcile,
				Idle:      watch.DefaultIdle,
				Grace:     watch.DefaultGrace,
				Command:   commandLine(),
				Pool:      pool,
				OnReady:   func(watch.Ready) { up.poke() },
				OnTick:    func(t watch.Tick) { logTick(g, name, t); up.poke() },
				OnNotice:  func(s string) { fmt.Fprintf(g.stderr, "autorag: watch%s: %s\n", prefixed(name), s) },
			})
			if errs[i] != nil && len(roots) > 1 && wctx.Err() == nil {
				fmt.Fprintf(g.stderr, "autorag: watch %s: %v (left unwatched; the others go on)\n", r.name, errs[i])
			}
		})
	}
	err := serve(ctx)
	stop()
	wg.Wait()
	if len(roots) == 1 && errs[0] != nil && err == nil && ctx.Err() == nil {
		err = fmt.Errorf("watch: %w", errs[0])
	}
	return err
}

func prefixed(name string) string {
	if name == "" {
		return ""
	}
	return " " + name
}

// logTick reports a watcher tick of a server on stderr, naming its root
// when the server has several.
func logTick(g *globals, root string, t watch.Tick) {
	if t.Err == nil && !g.verbose {
		return
	}
	b, err := json.Marshal(struct {
		Root  string   `json:"root,omitempty"`
		Watch tickLine `json:"watch"`
	}{root, toLine(t)})
	if err != nil {
		return
	}
	fmt.Fprintf(g.stderr, "%s\n", b)
}
