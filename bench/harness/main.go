// Command harness is autorag's whole-process benchmark: it times the CLI the
// way scripts and editors run it (one process per command) on generated
// corpora of several sizes and, optionally, a real document tree, and writes
// a markdown report with the machine, the floors (process start-up, tree
// walk) and every scenario's median, p10–p90 and peak RSS.
//
// Run it from the repository root:
//
//	go run ./bench/harness -quick
//	go run ./bench/harness -sizes 400,2000,3200,16000,100000 -tree /path/to/docs
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type config struct {
	Sizes         []int
	Runs          int
	Work          string
	Bin           string
	Tree          string
	TreeSelective string
	TreeBroad     string
	Out           string
	Keep          bool
	Quick         bool
	Only          *regexp.Regexp // -only; nil runs every scenario
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("harness", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("sizes", "400,2000,3200,16000,100000", "comma-separated generated corpus sizes (documents)")
	fs.IntVar(&cfg.Runs, "runs", 15, "runs per scenario (fewer for first refresh and rebuild on big trees)")
	fs.BoolVar(&cfg.Quick, "quick", false, "fast iteration: -sizes 400,2000 -runs 5 unless given explicitly")
	fs.StringVar(&cfg.Work, "work", filepath.Join(os.TempDir(), "autorag-bench"), "work dir: cached corpora, binaries, scratch copies")
	fs.StringVar(&cfg.Bin, "bin", "", "autorag binary to measure (default: go build ./cmd/autorag into the work dir)")
	fs.StringVar(&cfg.Tree, "tree", "", "a real document tree to benchmark too (read-only; a copy is used)")
	fs.StringVar(&cfg.TreeSelective, "tree-selective", "OTEL_BSP_SCHEDULE_DELAY", "selective query for -tree")
	fs.StringVar(&cfg.TreeBroad, "tree-broad", "collector exporter configuration", "broad query for -tree")
	fs.StringVar(&cfg.Out, "out", "bench.md", `report file ("-": stdout only); docs/BENCHMARKS.md is curated from it`)
	fs.BoolVar(&cfg.Keep, "keep", false, "keep the scratch copies (with their .autorag) after the run")
	only := fs.String("only", "", "run only the scenarios whose name matches this regexp (floors always run; an\nunmeasured first refresh builds the index when it is left out)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			return cfg, fmt.Errorf("-only: %w", err)
		}
		cfg.Only = re
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	set := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if cfg.Quick {
		if !set["sizes"] {
			*sizes = "400,2000"
		}
		if !set["runs"] {
			cfg.Runs = 5
		}
	}
	if cfg.Runs < 1 {
		return cfg, errors.New("-runs must be at least 1")
	}
	for f := range strings.SplitSeq(*sizes, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 2 || n > 9_999_999 {
			return cfg, fmt.Errorf("-sizes: %q is not a document count between 2 and 9999999", f)
		}
		cfg.Sizes = append(cfg.Sizes, n)
	}
	return cfg, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "harness:", err)
		}
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := bench(ctx, cfg, stderr, args)
	if err != nil {
		fmt.Fprintln(stderr, "harness:", err)
		return 1
	}
	md := rep.Markdown()
	fmt.Fprint(stdout, md)
	if cfg.Out != "-" && cfg.Out != "" {
		if err := os.WriteFile(cfg.Out, []byte(md), 0o644); err != nil {
			fmt.Fprintln(stderr, "harness: write report:", err)
			return 1
		}
		fmt.Fprintln(stderr, "harness: report written to", cfg.Out)
	}
	if rep.failed() {
		return 1
	}
	return 0
}

// bench prepares the binaries and corpora, measures the floors and runs every
// target. Only set-up failures are errors; failed scenarios are in the report.
func bench(ctx context.Context, cfg config, stderr io.Writer, args []string) (*report, error) {
	start := time.Now()
	work, err := filepath.Abs(cfg.Work)
	if err != nil {
		return nil, fmt.Errorf("work dir: %w", err)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, fmt.Errorf("create work dir: %w", err)
	}
	bin := cfg.Bin
	if bin == "" {
		fmt.Fprintln(stderr, "harness: building ./cmd/autorag")
		if bin, err = buildCLI(ctx, work); err != nil {
			return nil, err
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return nil, fmt.Errorf("-bin: %w", err)
	}
	hello, err := buildHello(ctx, work)
	if err != nil {
		return nil, err
	}
	// Without the wrapper the numbers are still taken, but peak RSS then
	// includes the harness's own (see runProcess): the report says so.
	wrap, wrapErr := buildWrapper(ctx, work)
	if wrapErr != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		fmt.Fprintf(stderr, "harness: WARNING: cannot build rsswrap, peak RSS will include the harness's own: %v\n", wrapErr)
		wrap = ""
	}
	h := &harness{bin: bin, wrap: wrap, runs: cfg.Runs, env: os.Environ(), log: stderr, only: cfg.Only}
	h.caps = detectCapabilities(ctx, bin)
	rep := &report{
		Machine:   describeMachine(ctx, work, bin),
		Command:   "go run ./bench/harness " + shellJoin(args),
		Runs:      cfg.Runs,
		Caps:      h.caps,
		EnvPassed: autoragEnv(h.env),
		Only:      regexpString(cfg.Only),
	}
	if wrapErr != nil {
		rep.WrapErr = wrapErr.Error()
	}
	for _, f := range []struct {
		name string
		argv []string
	}{
		{"floor S: `autorag --version` start-up", []string{bin, "--version"}},
		{"hello-world Go binary start-up", []string{hello}},
	} {
		r := h.floor(ctx, f.name, cfg.Runs, work, f.argv...)
		h.logResult("floors", r)
		rep.Floors = append(rep.Floors, r)
	}

	targets, err := prepareTargets(ctx, cfg, work, stderr)
	rep.Targets = append(rep.Targets, targets.failed...)
	if err != nil {
		return nil, err
	}
	scratch := filepath.Join(work, "scratch")
	for _, t := range targets.ready {
		if ctx.Err() != nil {
			rep.Aborted = "interrupted"
			break
		}
		rep.Targets = append(rep.Targets, h.benchTarget(ctx, scratch, cfg.Keep, t))
	}
	if ctx.Err() != nil {
		rep.Aborted = "interrupted"
	}
	rep.Took = time.Since(start)
	return rep, nil
}

type preparedTargets struct {
	ready  []target
	failed []targetReport
}

// prepareTargets generates (or reuses) each corpus and adds the real tree.
func prepareTargets(ctx context.Context, cfg config, work string, stderr io.Writer) (preparedTargets, error) {
	var p preparedTargets
	cache := filepath.Join(work, "corpora")
	for _, size := range cfg.Sizes {
		if err := ctx.Err(); err != nil {
			return p, err
		}
		c := newGenCorpus(size, corpusSeed)
		t := target{
			Title:     fmt.Sprintf("Generated corpus, %s docs", groupDigits(size)),
			Slug:      fmt.Sprintf("gen-%d", size),
			Selective: c.Planted[0].Term,
			Broad:     broadQuery,
			// Results are one per file by default, and the term is in two.
			SelectiveCheck: wantResults(2),
		}
		start := time.Now()
		dir, reused, err := c.ensureCached(cache, runtime.NumCPU())
		if err != nil {
			p.failed = append(p.failed, targetReport{Target: t, Err: err.Error()})
			continue
		}
		t.Src = dir
		t.Origin = fmt.Sprintf("generated by %s, cached in `%s`", generatorVersion, dir)
		if reused {
			fmt.Fprintf(stderr, "harness: reusing corpus %s\n", dir)
		} else {
			fmt.Fprintf(stderr, "harness: generated %d docs in %s\n", size, time.Since(start).Round(time.Millisecond))
		}
		p.ready = append(p.ready, t)
	}
	if cfg.Tree != "" {
		src, err := filepath.Abs(cfg.Tree)
		if err != nil {
			return p, fmt.Errorf("-tree: %w", err)
		}
		t := target{
			Title:     "Real tree: " + filepath.Base(src),
			Slug:      "tree-" + filepath.Base(src),
			Src:       src,
			Selective: cfg.TreeSelective,
			Broad:     cfg.TreeBroad,
			Origin:    fmt.Sprintf("a copy of `%s`", src),
		}
		if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
			p.failed = append(p.failed, targetReport{Target: t, Err: fmt.Sprintf("%s is not a directory", src)})
		} else {
			p.ready = append(p.ready, t)
		}
	}
	return p, nil
}

func regexpString(re *regexp.Regexp) string {
	if re == nil {
		return ""
	}
	return re.String()
}

// shellJoin quotes args for a POSIX shell where needed, so that the report's
// reproduction command can be pasted (-only takes regexps like "a|b").
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		safe := a != ""
		for _, c := range a {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./,:=+@%", c)) {
				safe = false
				break
			}
		}
		if safe {
			quoted[i] = a
		} else {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}

// autoragEnv lists the AUTORAG_* variables the children inherit, values
// hidden (one may hold an API key).
func autoragEnv(env []string) []string {
	var names []string
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "AUTORAG_") {
			names = append(names, name)
		}
	}
	return names
}

func (r *report) failed() bool {
	if r.Aborted != "" {
		return true
	}
	for _, f := range r.Floors {
		if f.Err != "" {
			return true
		}
	}
	for _, t := range r.Targets {
		if t.Err != "" {
			return true
		}
		for _, res := range t.Results {
			if res.Err != "" {
				return true
			}
		}
	}
	return false
}
