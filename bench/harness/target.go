package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/autorag/autorag/internal/plural"
)

// target is one corpus to benchmark: a source directory that is copied to a
// scratch directory, which every scenario then works in.
type target struct {
	Title     string // table heading, e.g. "generated, 2,000 docs"
	Slug      string // scratch directory name
	Src       string
	Selective string // query matching few documents
	Broad     string // query matching most documents
	// SelectiveCheck, if set, checks the selective query's answer (the
	// generated corpora know their planted term is in exactly two docs).
	SelectiveCheck func(envelope) string
	Origin         string // how the source came to be, for the report
}

// targetReport is everything measured on one target.
type targetReport struct {
	Target  target
	Stats   treeStats
	Results []result
	Err     string // set when the target could not be prepared at all
}

// benchTarget copies the target to scratch and runs every scenario on the
// copy. A failing scenario is recorded and the next one still runs.
func (h *harness) benchTarget(ctx context.Context, scratchRoot string, keep bool, t target) targetReport {
	rep := targetReport{Target: t}
	root := filepath.Join(scratchRoot, t.Slug)
	if err := os.RemoveAll(root); err != nil {
		rep.Err = fmt.Sprintf("clear scratch copy: %v", err)
		return rep
	}
	if err := os.MkdirAll(filepath.Dir(root), 0o755); err != nil {
		rep.Err = fmt.Sprintf("create scratch dir: %v", err)
		return rep
	}
	start := time.Now()
	st, err := copyTree(t.Src, root)
	if err != nil {
		rep.Err = err.Error()
		return rep
	}
	rep.Stats = st
	fmt.Fprintf(h.log, "[%s] copied %d files (%s) to %s in %s\n", t.Title, st.Files, formatBytes(st.Bytes),
		root, time.Since(start).Round(time.Millisecond))
	if !keep {
		defer os.RemoveAll(root)
	}

	// W is a stat walk, what a refresh must at least do: `find -type f`
	// alone reads only the directories (it gets file types from getdents),
	// 42-76 % of W in run 3 of docs/BENCHMARKS.md; it is reported for
	// reference.
	walk := h.floor(ctx, "floor W: `find -type f -printf '%s %T@'` stat walk", h.runs, root,
		"find", root, "-type", "f", "-printf", `%s %T@\n`)
	h.logResult(t.Title, walk)
	rep.Results = append(rep.Results, walk)
	listing := h.floor(ctx, "`find -type f` (directory listing only, no stat)", h.runs, root, "find", root, "-type", "f")
	h.logResult(t.Title, listing)
	rep.Results = append(rep.Results, listing)
	list, boot := filterScenarios(h.scenarios(root, st, t), h.only)
	if h.only != nil && len(list) == 0 {
		fmt.Fprintf(h.log, "[%s] no scenario matches -only %q\n", t.Title, h.only)
	}
	if boot != nil && ctx.Err() == nil && !hasIndex(root) {
		fmt.Fprintf(h.log, "[%s] -only leaves out %q: running it once, unmeasured, to build the index\n", t.Title, boot.Name)
		start := time.Now()
		r := h.run(ctx, root, scenario{Name: boot.Name + " (unmeasured, builds the index)", Runs: 1,
			Prepare: boot.Prepare, Args: boot.Args, Check: boot.Check})
		if r.Err != "" {
			h.logResult(t.Title, r)
			rep.Results = append(rep.Results, r)
		} else {
			fmt.Fprintf(h.log, "[%s] index built in %s (%s)\n", t.Title, time.Since(start).Round(time.Millisecond), r.Notes)
		}
	}
	for _, sc := range list {
		if ctx.Err() != nil {
			break
		}
		r := h.run(ctx, root, sc)
		h.logResult(t.Title, r)
		rep.Results = append(rep.Results, r)
	}
	return rep
}

// filterScenarios keeps, in order, the scenarios whose name matches only
// (all of them when only is nil). When it drops the scenario that makes the
// index but keeps one that needs it (every other scenario does), it returns
// the dropped one as boot, to be run once unmeasured first.
func filterScenarios(list []scenario, only *regexp.Regexp) (kept []scenario, boot *scenario) {
	if only == nil {
		return list, nil
	}
	var dropped *scenario // an index maker that was left out, not yet needed
	for i := range list {
		sc := &list[i]
		keep := only.MatchString(sc.Name)
		switch {
		case sc.MakesIndex && keep:
			dropped = nil // it runs, in order, and leaves the index
		case sc.MakesIndex:
			dropped = sc
		case keep && dropped != nil && boot == nil:
			boot = dropped
		}
		if keep {
			kept = append(kept, *sc)
		}
	}
	return kept, boot
}

// hasIndex says whether root already has an autorag index directory.
func hasIndex(root string) bool {
	fi, err := os.Stat(filepath.Join(root, ".autorag"))
	return err == nil && fi.IsDir()
}

// heavyRuns is the run count for scenarios that redo all the work (first
// refresh, rebuild): fewer for big trees.
func heavyRuns(runs, files int) int {
	switch {
	case files > 50000:
		return min(runs, 3)
	case files > 10000:
		return min(runs, 5)
	default:
		return runs
	}
}

// scenarios lists what is measured on a target, in order: the first
// refresh leaves the index every later scenario needs.
func (h *harness) scenarios(root string, st treeStats, t target) []scenario {
	base := func(args ...string) []string { return append([]string{"--root", root}, args...) }
	refresh := func(int) []string { return base("refresh", "--json") }
	ed := newEditor(root)
	files := st.Editable
	n := len(files)
	heavy := heavyRuns(h.runs, st.Files)

	list := []scenario{
		{Name: "first refresh", Runs: heavy, Args: refresh, Check: wantChange, MakesIndex: true,
			Prepare: func(int) error { return os.RemoveAll(filepath.Join(root, ".autorag")) }},
		{Name: "no-op refresh", Runs: h.runs, Warmup: true, Args: refresh, Check: wantOutcome("unchanged")},
	}
	if n > 0 {
		list = append(list, h.editScenarios(base, ed, files)...)
	}
	list = append(list, h.queryScenarios(base, t)...)
	list = append(list, scenario{Name: "index rebuild", Runs: heavy,
		Args: func(int) []string { return base("index", "rebuild", "--json") }})
	return list
}

// editScenarios edit files before each run and refresh: all of them, or
// only the named path.
func (h *harness) editScenarios(base func(...string) []string, ed *editor, files []string) []scenario {
	refresh := func(int) []string { return base("refresh", "--json") }
	n := len(files)
	onePct := max(1, n/100)
	list := []scenario{
		{Name: "refresh, 1 file changed", Runs: h.runs, Warmup: true, Args: refresh, Check: wantChange,
			Prepare: func(run int) error { return ed.edit(files[(run*7919+1)%n]) }},
		{Name: fmt.Sprintf("refresh, 1%% changed (%s)", plural.Count(onePct, "file")), Runs: h.runs, Warmup: true,
			Args: refresh, Check: wantChange,
			Prepare: func(run int) error {
				for k := range onePct {
					if err := ed.edit(files[(run*onePct+k)%n]); err != nil {
						return err
					}
				}
				return nil
			}},
	}
	// The edited path is passed relative: the process runs in the root, so
	// it names the same file whether the CLI resolves it against the
	// working directory or against --root.
	pathsFile := func(run int) string { return files[(run*104729+n/2)%n] }
	list = append(list, scenario{Name: "refresh --paths, 1 edited file", Runs: h.runs, Warmup: true,
		Check:   wantChange,
		Prepare: func(run int) error { return ed.edit(pathsFile(run)) },
		Args:    func(run int) []string { return base("refresh", "--json", "--paths", pathsFile(run)) }})
	return list
}

// queryScenarios measures BM25 queries uncached and cached, and the vector
// and hybrid modes when the binary has --mode.
func (h *harness) queryScenarios(base func(...string) []string, t target) []scenario {
	query := func(mode string, uncached bool, text string) func(int) []string {
		return func(int) []string {
			a := base("query", "--json", "-k", "10")
			if h.caps.Mode {
				a = append(a, "--mode", mode)
			}
			if uncached && h.caps.NoCache {
				a = append(a, "--no-cache")
			}
			return append(a, text)
		}
	}
	uncachedLabel := ", --no-cache"
	if !h.caps.NoCache {
		uncachedLabel = ""
	}
	kinds := []struct {
		kind, text string
		check      func(envelope) string
	}{{"selective", t.Selective, t.SelectiveCheck}, {"broad", t.Broad, nil}}
	var list []scenario
	for _, k := range kinds {
		list = append(list, scenario{Name: fmt.Sprintf("query bm25 %s%s", k.kind, uncachedLabel),
			Runs: h.runs, Warmup: true, Args: query("bm25", true, k.text), Check: k.check})
	}
	for _, k := range kinds {
		list = append(list, scenario{Name: fmt.Sprintf("query bm25 %s, cached (repeat)", k.kind),
			Runs: h.runs, Warmup: true, Args: query("bm25", false, k.text), Check: wantCached})
	}
	if h.caps.Mode {
		for _, mode := range []string{"vector", "hybrid"} {
			for _, k := range kinds {
				list = append(list, scenario{Name: fmt.Sprintf("query %s %s%s", mode, k.kind, uncachedLabel),
					Runs: h.runs, Warmup: true, Args: query(mode, true, k.text)})
			}
		}
	}
	return list
}
