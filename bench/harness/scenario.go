package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// harness holds what every scenario needs: the binary under test, how many
// runs to do, and where progress goes.
type harness struct {
	bin  string
	wrap string // rsswrap binary; empty for the fallback (see runProcess)
	runs int
	env  []string
	caps capabilities
	log  io.Writer
	only *regexp.Regexp // -only: scenarios to run; nil for all
}

// capabilities are the optional CLI features the scenarios adapt to,
// detected from `autorag query --help`.
type capabilities struct {
	NoCache bool // query --no-cache
	Mode    bool // query --mode bm25|vector|hybrid
}

// scenario is one measured command, run Runs times in the same root.
type scenario struct {
	Name    string
	Runs    int
	Warmup  bool                   // discard the first run
	Prepare func(run int) error    // untimed set-up before each run
	Args    func(run int) []string // arguments after the binary
	// MakesIndex marks the first refresh, which starts from no index and
	// leaves the one every later scenario needs.
	MakesIndex bool
	// Check, if set, inspects a successful run's envelope and returns a
	// warning for the notes column (e.g. an edit reported as "unchanged").
	// Warnings do not fail the scenario: they flag numbers that may not
	// measure what the scenario name says.
	Check func(envelope) string
}

// result is a scenario's outcome for the report. Err is empty on success.
type result struct {
	Name    string
	Summary summary
	Notes   string
	Stages  []stageMedian // medians of the envelope's stages_ms, if any
	Err     string
}

// envelope is the part of the CLI's JSON output that the harness checks.
type envelope struct {
	OK      *bool             `json:"ok"`
	Outcome string            `json:"outcome"`
	Cached  *bool             `json:"cached"`
	Results []json.RawMessage `json:"results"`
	// StagesMS is the refresh's time per stage (scan, build, commit, gc).
	StagesMS map[string]float64 `json:"stages_ms"`
	Error    *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// checkEnvelope parses stdout as one JSON object and requires ok:true.
func checkEnvelope(stdout []byte) (envelope, error) {
	var env envelope
	if err := json.Unmarshal(stdout, &env); err != nil {
		return env, fmt.Errorf("stdout is not one JSON object: %w (stdout: %q)", err, lastLine(stdout))
	}
	if env.OK == nil {
		return env, fmt.Errorf("JSON envelope has no \"ok\" field")
	}
	if !*env.OK {
		msg := fmt.Sprintf("ok is false (outcome %q)", env.Outcome)
		if env.Error != nil {
			msg += fmt.Sprintf(": %s: %s", env.Error.Code, env.Error.Message)
		}
		return env, fmt.Errorf("%s", msg)
	}
	return env, nil
}

// describe summarizes an envelope for the notes column, e.g.
// "unchanged" or "ok, 2 results, cached".
func (e envelope) describe() string {
	parts := []string{e.Outcome}
	if e.Results != nil {
		parts = append(parts, fmt.Sprintf("%d results", len(e.Results)))
	}
	if e.Cached != nil {
		if *e.Cached {
			parts = append(parts, "cached")
		} else {
			parts = append(parts, "not cached")
		}
	}
	return strings.Join(parts, ", ")
}

// run executes the scenario in dir. Every run must exit 0 and print an
// envelope with ok:true; the first failure ends the scenario.
func (h *harness) run(ctx context.Context, dir string, sc scenario) result {
	res := result{Name: sc.Name}
	var samples []sample
	var stages []map[string]float64
	var seen, warnings tally
	for run := range sc.Runs {
		if err := ctx.Err(); err != nil {
			res.Err = fmt.Sprintf("interrupted before run %d", run+1)
			return res
		}
		if sc.Prepare != nil {
			if err := sc.Prepare(run); err != nil {
				res.Err = fmt.Sprintf("run %d: prepare: %v", run+1, err)
				return res
			}
		}
		s, err := h.measure(ctx, runOpts{Dir: dir}, h.bin, sc.Args(run)...)
		var env envelope
		if err == nil {
			env, err = checkEnvelope(s.Stdout)
		}
		if err != nil {
			res.Err = fmt.Sprintf("run %d: %v", run+1, err)
			return res
		}
		if sc.Warmup && run == 0 && sc.Runs > 1 {
			continue
		}
		seen.add(env.describe())
		if sc.Check != nil {
			if w := sc.Check(env); w != "" {
				warnings.add("⚠ " + w)
			}
		}
		samples = append(samples, sample{Wall: s.Wall, MaxRSSKB: s.MaxRSSKB})
		if env.StagesMS != nil {
			stages = append(stages, env.StagesMS)
		}
	}
	res.Summary = summarize(samples)
	res.Stages = medianStages(stages)
	res.Notes = seen.String()
	if w := warnings.String(); w != "" {
		res.Notes += "; " + w
	}
	return res
}

// floor times a command that prints no envelope (start-up, tree walk): it
// only has to exit 0. The first run is a discarded warm-up.
func (h *harness) floor(ctx context.Context, name string, runs int, dir string, argv ...string) result {
	res := result{Name: name}
	var samples []sample
	for run := range runs + 1 {
		s, err := h.measure(ctx, runOpts{Dir: dir, DiscardStdout: true}, argv[0], argv[1:]...)
		if err != nil {
			res.Err = fmt.Sprintf("run %d: %v", run+1, err)
			return res
		}
		if run > 0 {
			samples = append(samples, sample{Wall: s.Wall, MaxRSSKB: s.MaxRSSKB})
		}
	}
	res.Summary = summarize(samples)
	return res
}

// measure runs one process with the harness's environment and wrapper. A
// process that cannot be run or exits non-zero is an error.
func (h *harness) measure(ctx context.Context, opts runOpts, name string, args ...string) (sample, error) {
	opts.Env, opts.Wrap = h.env, h.wrap
	s, err := runProcess(ctx, opts, name, args...)
	if err == nil && s.Exit != 0 {
		err = errors.New(describeFailure(s))
	}
	return s, err
}

// logResult prints one line of progress for a finished scenario.
func (h *harness) logResult(corpus string, r result) {
	if r.Err != "" {
		fmt.Fprintf(h.log, "[%s] %s: FAILED: %s\n", corpus, r.Name, r.Err)
		return
	}
	fmt.Fprintf(h.log, "[%s] %s: median %s (p10 %s, p90 %s, %d runs, peak RSS %s)\n", corpus, r.Name,
		formatDuration(r.Summary.Median), formatDuration(r.Summary.P10), formatDuration(r.Summary.P90), r.Summary.N,
		formatRSS(r.Summary.PeakRSSKB))
	if len(r.Stages) > 0 {
		fmt.Fprintf(h.log, "[%s] %s: stages_ms medians: %s\n", corpus, r.Name, formatStages(r.Stages))
	}
}

// tally counts distinct descriptions in first-seen order.
type tally struct {
	keys   []string
	counts map[string]int
}

func (t *tally) add(k string) {
	if t.counts == nil {
		t.counts = make(map[string]int)
	}
	if _, ok := t.counts[k]; !ok {
		t.keys = append(t.keys, k)
	}
	t.counts[k]++
}

// String renders "unchanged ×14" or "updated ×13; rebuilt ×1".
func (t *tally) String() string {
	parts := make([]string, 0, len(t.keys))
	for _, k := range t.keys {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, t.counts[k]))
	}
	return strings.Join(parts, "; ")
}

// wantOutcome warns when a refresh reports another outcome than want.
func wantOutcome(want string) func(envelope) string {
	return func(e envelope) string {
		if e.Outcome != want {
			return fmt.Sprintf("expected outcome %q", want)
		}
		return ""
	}
}

// wantChange warns when a refresh after an edit reports no change.
func wantChange(e envelope) string {
	if e.Outcome == "unchanged" {
		return "edit not detected"
	}
	return ""
}

// wantResults warns when a query returns another number of results.
func wantResults(n int) func(envelope) string {
	return func(e envelope) string {
		if e.Results != nil && len(e.Results) != n {
			return fmt.Sprintf("expected %d results", n)
		}
		return ""
	}
}

// wantCached warns when a repeated query was not served from the cache.
func wantCached(e envelope) string {
	if e.Cached != nil && !*e.Cached {
		return "repeat not served from cache"
	}
	return ""
}
