package syntax

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tetratelabs/wazero"
)

// sample is one file of testdata/samples, and the same grown to about
// 64 KiB: its header, then its body again and again (grow).
type sample struct {
	lang     string
	one, big []byte
}

// Lines a file holds once: its header (Kotlin's package and imports, PHP's
// opening tag) and Lua's `return M` at the end, which grow keeps once at
// the top and leaves out. In the middle of a file a parser recovers from
// them as errors, at several times the cost of a clean parse: natively,
// Kotlin 0.5 MB/s against 4.5, Lua 1.0 against 6.7.
var (
	headerPrefixes = [][]byte{[]byte("package "), []byte("import "), []byte("<?php")}
	endPrefixes    = [][]byte{[]byte("return ")}
)

// grow makes a source of at least n bytes out of one: its header lines,
// then the rest again and again.
func grow(one []byte, n int) []byte {
	starts := func(line []byte, prefixes [][]byte) bool {
		return slices.ContainsFunc(prefixes, func(p []byte) bool { return bytes.HasPrefix(line, p) })
	}
	var head, body []byte
	for line := range bytes.Lines(one) {
		switch {
		case starts(line, headerPrefixes):
			head = append(head, line...)
		case !starts(line, endPrefixes):
			body = append(body, line...)
		}
	}
	for len(head) < n {
		head = append(head, body...)
	}
	return head
}

func samples(t testing.TB) []sample {
	t.Helper()
	paths, err := filepath.Glob("testdata/samples/*")
	if err != nil {
		t.Fatal(err)
	}
	var ss []sample
	for _, path := range paths {
		one, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, sample{LangOf(path), one, grow(one, 64<<10)})
	}
	return ss
}

// readyInstance is a fresh instance made with cfg, with the rules of every
// language set.
func readyInstance(t *testing.T, cfg wazero.ModuleConfig) *instance {
	t.Helper()
	e, err := theEngine(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	in, err := instantiate(context.Background(), e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.close(context.Background()) })
	for _, l := range Languages() {
		if _, err := in.rules(context.Background(), in.langs[l], l); err != nil {
			t.Fatal(err)
		}
	}
	return in
}

// The module reads no clock while it parses: a parse, and whether it fits
// its budget, cannot depend on the machine's speed or load. The instance's
// clocks count their reads.
func TestReadsNoClock(t *testing.T) {
	ctx := context.Background()
	var reads atomic.Int64
	nano := func() int64 { reads.Add(1); return reads.Load() * 1e9 }
	wall := func() (int64, int32) { reads.Add(1); return reads.Load(), 0 }
	in := readyInstance(t, moduleConfig().WithNanotime(nano, 1).WithWalltime(wall, 1))
	reads.Store(0)
	for _, s := range samples(t) {
		src := grow(s.one, 16<<10)
		if _, _, err := in.parse(ctx, in.langs[s.lang], src, budget(len(src))); err != nil {
			t.Errorf("%s: %v", s.lang, err)
		}
	}
	if n := reads.Load(); n != 0 {
		t.Fatalf("the module read a clock %d times while parsing", n)
	}
}

// The budget is exact and the same under load: a parse that spends S steps
// succeeds with a budget of S and stops with S-1, with the cores idle and
// with every core busy (the samples grown to 8 KiB, and Kotlin's and
// Lua's repeated whole, which the parser recovers from errors in).
func TestBudgetIsSteps(t *testing.T) {
	ctx := context.Background()
	in := readyInstance(t, moduleConfig())
	type input struct {
		lang string
		src  []byte
	}
	var inputs []input
	for _, s := range samples(t) {
		inputs = append(inputs, input{s.lang, grow(s.one, 8<<10)})
		if s.lang == "kotlin" || s.lang == "lua" {
			inputs = append(inputs, input{s.lang, bytes.Repeat(s.one, 8<<10/len(s.one))})
		}
	}
	type outcome struct {
		steps uint32
		recs  []record
	}
	run := func(x input) outcome {
		idx := in.langs[x.lang]
		recs, steps, err := in.parse(ctx, idx, x.src, math.MaxUint32)
		if err != nil {
			t.Fatalf("%s: %v", x.lang, err)
		}
		again, _, err := in.parse(ctx, idx, x.src, steps)
		if err != nil || !slices.Equal(again, recs) {
			t.Fatalf("%s: with a budget of the %d steps it spent: %v", x.lang, steps, err)
		}
		if _, _, err := in.parse(ctx, idx, x.src, steps-1); !errors.Is(err, errTimeout) {
			t.Fatalf("%s: with a budget of %d steps, one short: %v, want errTimeout", x.lang, steps-1, err)
		}
		return outcome{steps, recs}
	}
	idle := make([]outcome, len(inputs))
	for i, x := range inputs {
		idle[i] = run(x)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for x := 0; ; x++ {
				select {
				case <-stop:
					return
				default:
				}
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()
	for i, x := range inputs {
		if got := run(x); got.steps != idle[i].steps || !slices.Equal(got.recs, idle[i].recs) {
			t.Errorf("%s: under load %d steps, idle %d", x.lang, got.steps, idle[i].steps)
		}
	}
}

// The budget leaves room: every sample, once and repeated, spends at most
// a quarter of its budget.
func TestBudgetMargin(t *testing.T) {
	ctx := context.Background()
	in := readyInstance(t, moduleConfig())
	for _, s := range samples(t) {
		for _, src := range [][]byte{s.one, s.big} {
			_, steps, err := in.parse(ctx, in.langs[s.lang], src, math.MaxUint32)
			if err != nil {
				t.Fatalf("%s: %v", s.lang, err)
			}
			t.Logf("%-10s %6d bytes: %6d steps, %5.1f per KiB", s.lang, len(src), steps, float64(steps)*1024/float64(len(src)))
			if b := budget(len(src)); steps > b/4 {
				t.Errorf("%s, %d bytes: %d steps, more than a quarter of the budget %d", s.lang, len(src), steps, b)
			}
		}
	}
}
