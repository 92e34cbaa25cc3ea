// Command watchlat measures `autorag watch` end to end on a copy of a
// corpus (e.g. one the harness generated and cached under
// $TMPDIR/autorag-bench/corpora/gen-N):
//
//   - save-to-searchable latency: a file is written with a new word, and
//     this process (not the watcher) queries until it finds it; p50 and
//     p95 over -runs edits;
//   - with -churn K: K refreshes of 1% of the files each (a churned index),
//     then broad-query latency before and after watch's idle compaction.
//
// Run it from the repository root:
//
//	go run ./bench/watchlat -corpus /tmp/autorag-bench/corpora/gen-2000
//	go run ./bench/watchlat -corpus /tmp/autorag-bench/corpora/gen-100000 -runs 0 -churn 14
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/fingerprint"
)

type config struct {
	corpus, bin, work, broad string
	runs, churn, queries     int
	debounce                 time.Duration
}

func main() {
	var c config
	flag.StringVar(&c.corpus, "corpus", "", "corpus directory to copy (required)")
	flag.StringVar(&c.bin, "bin", "", "autorag binary (default: go build ./cmd/autorag)")
	flag.StringVar(&c.work, "work", filepath.Join(os.TempDir(), "autorag-watchlat"), "scratch directory")
	flag.StringVar(&c.broad, "broad", "water people system", "broad query (the harness's)")
	flag.IntVar(&c.runs, "runs", 40, "save-to-searchable edits to time")
	flag.IntVar(&c.churn, "churn", 0, "refreshes of 1% of the files before the compaction measurement (0: skip it)")
	flag.IntVar(&c.queries, "queries", 11, "broad queries per measurement")
	flag.DurationVar(&c.debounce, "debounce", 300*time.Millisecond, "watch --debounce")
	flag.Parse()
	if c.corpus == "" {
		fmt.Fprintln(os.Stderr, "watchlat: -corpus is required")
		os.Exit(2)
	}
	if err := run(context.Background(), c); err != nil {
		fmt.Fprintln(os.Stderr, "watchlat:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, c config) error {
	if err := os.MkdirAll(c.work, 0o755); err != nil {
		return err
	}
	if c.bin == "" {
		c.bin = filepath.Join(c.work, "autorag")
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", c.bin, "./cmd/autorag").CombinedOutput(); err != nil {
			return fmt.Errorf("build: %v: %s", err, out)
		}
	}
	root := filepath.Join(c.work, "root")
	if err := os.RemoveAll(root); err != nil {
		return err
	}
	if out, err := exec.CommandContext(ctx, "cp", "-r", c.corpus, root).CombinedOutput(); err != nil {
		return fmt.Errorf("copy corpus: %v: %s", err, out)
	}
	defer os.RemoveAll(root)
	files, err := docs(root)
	if err != nil {
		return err
	}
	fmt.Printf("corpus %s: %d files; binary %s\n", c.corpus, len(files), c.bin)
	start := time.Now()
	if err := cli(ctx, c.bin, root, "refresh", "--json"); err != nil {
		return err
	}
	fmt.Printf("first refresh: %s\n", time.Since(start).Round(time.Millisecond))
	if c.runs > 0 {
		if err := saveToSearchable(ctx, c, root, files); err != nil {
			return err
		}
	}
	if c.churn > 0 {
		return compaction(ctx, c, root, files)
	}
	return nil
}

// docs lists the corpus's files, relative to root, sorted.
func docs(root string) ([]string, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".md") {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out, nil
}

func cli(ctx context.Context, bin, root string, args ...string) error {
	cmd := exec.CommandContext(ctx, bin, append([]string{"--root", root}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("autorag %v: %v: %s", args, err, out)
	}
	return nil
}

// watcher is `autorag watch --json` with its tick lines on a channel.
type watcher struct {
	cmd   *exec.Cmd
	ticks chan map[string]any
}

func startWatch(ctx context.Context, bin, root string, args ...string) (*watcher, error) {
	cmd := exec.CommandContext(ctx, bin, append([]string{"--root", root, "watch", "--json"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	w := &watcher{cmd: cmd, ticks: make(chan map[string]any, 1<<16)}
	go w.read(out)
	if _, err := w.wait("start", 10*time.Minute); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *watcher) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			w.ticks <- m
		}
	}
	close(w.ticks)
}

// wait returns the next tick of the given trigger.
func (w *watcher) wait(trigger string, limit time.Duration) (map[string]any, error) {
	deadline := time.After(limit)
	for {
		select {
		case m, ok := <-w.ticks:
			if !ok {
				return nil, fmt.Errorf("watch exited while waiting for a %s tick", trigger)
			}
			if m["trigger"] == trigger {
				return m, nil
			}
		case <-deadline:
			return nil, fmt.Errorf("no %s tick within %s", trigger, limit)
		}
	}
}

func (w *watcher) stop() error {
	_ = w.cmd.Process.Signal(syscall.SIGTERM)
	for range w.ticks {
	}
	return w.cmd.Wait()
}

// saveToSearchable edits one file at a time with a word no file holds and
// times, from the write's return, until a query here finds it.
func saveToSearchable(ctx context.Context, c config, root string, files []string) error {
	w, err := startWatch(ctx, c.bin, root, "--debounce", c.debounce.String(), "--compact-idle", "0", "--reconcile", "0")
	if err != nil {
		return err
	}
	e, err := engine.New(root, engine.DefaultSettings())
	if err != nil {
		return err
	}
	svc := engine.NewService(e, 1<<20)
	defer svc.Close()
	var lat []time.Duration
	for i := range c.runs {
		rel := files[(i*7919+11)%len(files)]
		word := probeWord(i)
		d, err := timeEdit(ctx, svc, root, rel, word)
		if err != nil {
			_ = w.stop()
			return err
		}
		lat = append(lat, d)
	}
	ticks := 0
	for len(w.ticks) > 0 {
		if m := <-w.ticks; m["trigger"] == "event" {
			ticks++
		}
	}
	if err := w.stop(); err != nil {
		return fmt.Errorf("watch exit: %w", err)
	}
	slices.Sort(lat)
	fmt.Printf("save-to-searchable, %d docs, debounce %s, %d edits: p50 %s, p95 %s, min %s, max %s\n",
		len(files), c.debounce, len(lat), q(lat, 0.5), q(lat, 0.95), lat[0].Round(time.Millisecond/10), lat[len(lat)-1].Round(time.Millisecond/10))
	return nil
}

// timeEdit appends word to rel and polls the service until a BM25 query
// for word returns rel.
func timeEdit(ctx context.Context, svc *engine.Service, root, rel, word string) (time.Duration, error) {
	p := filepath.Join(root, rel)
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, err
	}
	b = append(b, []byte("\n\nProbe "+word+".\n")...)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return 0, err
	}
	t0 := time.Now()
	for time.Since(t0) < time.Minute {
		res, _, err := svc.Query(ctx, engine.QueryOptions{Text: word, Mode: engine.ModeBM25, K: 1})
		if err != nil {
			return 0, err
		}
		if len(res.Results) == 1 && res.Results[0].Path == rel {
			return time.Since(t0), nil
		}
		time.Sleep(time.Millisecond)
	}
	return 0, fmt.Errorf("%s not searchable within a minute", word)
}

// probeWord is a word no corpus file holds: letters only, so that no
// analyzer splits it, ending in "qz", which no stemmer strips (a plain
// letter ending made "zqprobes" and "zqprobee" one stem).
func probeWord(i int) string {
	s := "zq"
	for n := i + 1; n > 0; n /= 26 {
		s += string(rune('a' + n%26))
	}
	return s + "qz"
}

// q is the q-quantile of sorted durations (nearest rank).
func q(sorted []time.Duration, f float64) time.Duration {
	i := int(f*float64(len(sorted)-1) + 0.5)
	return sorted[i].Round(time.Millisecond / 10)
}

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
