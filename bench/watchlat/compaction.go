package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/fingerprint"
)

// compaction churns the index with refreshes of 1% of the files, then
// times broad queries (separate processes, --no-cache) before and after
// watch's idle compaction.
func compaction(ctx context.Context, c config, root string, files []string) error {
	onePct := max(1, len(files)/100)
	start := time.Now()
	for round := range c.churn {
		for k := range onePct {
			rel := files[(round*onePct+k)%len(files)]
			p := filepath.Join(root, rel)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b = append(b, []byte(fmt.Sprintf("\n\nRevision %d of the water system.\n", round))...)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				return err
			}
		}
		if err := cli(ctx, c.bin, root, "refresh", "--json"); err != nil {
			return err
		}
	}
	fmt.Printf("churn: %d refreshes of %d files each in %s\n", c.churn, onePct, time.Since(start).Round(time.Second))
	// A hard-linked copy keeps the churned index: generations are immutable
	// and queries only add cache files, so the two roots can be queried in
	// turn, under the same load, before and after.
	churned := root + "-churned"
	_ = os.RemoveAll(churned)
	if out, err := exec.CommandContext(ctx, "cp", "-al", root, churned).CombinedOutput(); err != nil {
		return fmt.Errorf("link copy: %v: %s", err, out)
	}
	defer os.RemoveAll(churned)
	w, err := startWatch(ctx, c.bin, root, "--compact-idle", "1s", "--reconcile", "0")
	if err != nil {
		return err
	}
	// The start tick committed nothing (the index is current), so the
	// watcher is not dirty: one edit (a new file, so the hard-linked copy
	// is untouched) makes it so, then it compacts when idle.
	if err := os.WriteFile(filepath.Join(root, "watchlat-edit.md"), []byte("# Edit\n\nOne more water edit.\n"), 0o644); err != nil {
		return err
	}
	tick, err := w.wait("idle", 30*time.Minute)
	if err != nil {
		return err
	}
	if err := w.stop(); err != nil {
		return fmt.Errorf("watch exit: %w", err)
	}
	cj, _ := json.Marshal(tick["compact"])
	fmt.Printf("idle compaction: %s, took %.0f ms: %s\n", tick["outcome"], tick["took_ms"], cj)
	for _, mode := range []string{"bm25", "hybrid"} {
		before, after, err := interleaved(ctx, c, mode, churned, root)
		if err != nil {
			return err
		}
		fmt.Printf("broad %s query: churned %s, compacted %s (medians of %d processes each, alternated)\n",
			mode, before, after, c.queries)
		before, after, err = inProcess(ctx, c, mode, churned, root)
		if err != nil {
			return err
		}
		fmt.Printf("broad %s search on an open generation: churned %s, compacted %s (medians of %d, alternated)\n",
			mode, before, after, 3*c.queries)
	}
	return nil
}

// inProcess times the search alone on each root's committed generation,
// opened once (what a server's engine.Service does), in turn.
func inProcess(ctx context.Context, c config, mode, a, b string) (time.Duration, time.Duration, error) {
	type open struct {
		e  *engine.Engine
		g  *engine.Generation
		o  engine.QueryOptions
		ts []time.Duration
	}
	var gens []*open
	settings := engine.DefaultSettings()
	settings.Embedder = static.New() // the CLI's default: the indexes were built with it
	for _, root := range []string{a, b} {
		e, err := engine.New(root, settings)
		if err != nil {
			return 0, 0, err
		}
		sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
		if err != nil {
			return 0, 0, err
		}
		g, err := e.OpenGeneration(sc)
		if err != nil {
			return 0, 0, err
		}
		defer g.Close()
		o, err := e.ResolveOptions(sc, engine.QueryOptions{Text: c.broad, K: 10, Mode: mode})
		if err != nil {
			return 0, 0, err
		}
		gens = append(gens, &open{e: e, g: g, o: o})
	}
	for i := range 3*c.queries + 1 {
		order := []*open{gens[0], gens[1]}
		if i%2 == 1 { // neither root always goes first
			order[0], order[1] = order[1], order[0]
		}
		for _, x := range order {
			t0 := time.Now()
			if _, err := x.e.Search(ctx, x.g, x.o); err != nil {
				return 0, 0, err
			}
			if i > 0 {
				x.ts = append(x.ts, time.Since(t0))
			}
		}
	}
	for _, x := range gens {
		slices.Sort(x.ts)
	}
	return q(gens[0].ts, 0.5), q(gens[1].ts, 0.5), nil
}

// interleaved times broad query processes on two roots in turn (after
// one discarded warm-up each) and returns each root's median.
func interleaved(ctx context.Context, c config, mode, a, b string) (time.Duration, time.Duration, error) {
	var ta, tb []time.Duration
	for i := range c.queries + 1 {
		type side struct {
			root string
			ts   *[]time.Duration
		}
		order := []side{{a, &ta}, {b, &tb}}
		if i%2 == 1 { // neither root always goes first
			order[0], order[1] = order[1], order[0]
		}
		for _, r := range order {
			t0 := time.Now()
			if err := cli(ctx, c.bin, r.root, "query", "--json", "--no-cache", "--mode", mode, "-k", "10", c.broad); err != nil {
				return 0, 0, err
			}
			if i > 0 {
				*r.ts = append(*r.ts, time.Since(t0))
			}
		}
	}
	slices.Sort(ta)
	slices.Sort(tb)
	return q(ta, 0.5), q(tb, 0.5), nil
}
