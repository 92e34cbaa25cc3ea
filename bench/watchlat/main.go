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
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/autorag/autorag/engine"
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
