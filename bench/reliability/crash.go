package main

import (
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/autorag/autorag/internal/failpoint"
)

// refreshPoints are the failpoints a refresh or a rebuild can reach.
func refreshPoints() []string {
	var out []string
	for _, p := range failpoint.Points {
		if !strings.HasPrefix(p, "reset-") && !strings.HasPrefix(p, "verify-") {
			out = append(out, p)
		}
	}
	return out
}

// crashMatrix kills (mode "kill") or fails (mode "error") a refresh or a
// rebuild (args) at every failpoint, each time on a fresh copy of t with
// the same change, and checks the root after each.
func (h *harness) crashMatrix(t *committed, args []string, mode string, points []string) outcome {
	o := outcome{Scenario: "crash matrix: `" + strings.Join(args, " ") + "`, " + mode + " at each of " + itoa(len(points)) + " failpoints"}
	const changeSeed = 1
	var want *snapshot
	reached := 0
	for _, p := range points {
		root, c, err := h.trialRoot(t, changeSeed)
		if err == nil {
			err = c.mutate(12)
		}
		if err != nil {
			o.fail("%s: setup: %v", p, err)
			continue
		}
		if want == nil {
			w, err := h.cli.reference(root, h.work)
			if err != nil {
				o.fail("reference: %v", err)
				return o
			}
			want = &w
		}
		o.Trials++
		spec := p
		if mode == "error" {
			spec += ":error"
		}
		r := h.cli.run([]string{failpoint.Env + "=" + spec}, append([]string{"--root", root}, append(args, "--json")...)...)
		switch {
		case mode == "kill" && r.code == -1, mode == "error" && r.code == 3 && strings.Contains(r.stdout+r.stderr, "injected failure"):
			reached++
		case r.code == 0:
			// Not reached (e.g. no garbage to collect), or an error after
			// the commit, which is a warning.
			if mode == "error" && strings.Contains(r.stdout, "injected failure") {
				reached++
			}
		default:
			o.fail("%s: unexpected %s", p, r)
			continue
		}
		if err := h.cli.checkAfter(root, t.old, *want); err != nil {
			o.fail("%s: %v", p, err)
		}
		os.RemoveAll(root)
	}
	o.note("%d of %d failpoints reached (the others are steps this change does not take)", reached, len(points))
	return o
}

// resetCrashes kills index reset at each of its failpoints: the root then
// serves the old index or none, and the next refresh rebuilds it exactly.
func (h *harness) resetCrashes(t *committed) outcome {
	o := outcome{Scenario: "crash matrix: `index reset --yes`, kill at each of its failpoints"}
	for _, p := range failpoint.Points {
		if !strings.HasPrefix(p, "reset-") {
			continue
		}
		root, _, err := h.trialRoot(t, 0)
		if err != nil {
			o.fail("%s: setup: %v", p, err)
			continue
		}
		o.Trials++
		if r := h.cli.run([]string{failpoint.Env + "=" + p}, "--root", root, "index", "reset", "--yes"); r.code != -1 {
			o.fail("%s: reset not killed: %s", p, r)
		}
		if r := h.cli.run(nil, "--root", root, "query", "--no-cache", probes[0]); r.code != 0 && r.code != 2 {
			o.fail("%s: query after a killed reset: %s", p, r)
		}
		if r := h.cli.run(nil, "--root", root, "refresh", "-q"); r.code != 0 {
			o.fail("%s: refresh after a killed reset: %s", p, r)
			continue
		}
		got, err := h.cli.observe(root)
		if err != nil || !got.equal(t.old) {
			o.fail("%s: the refresh after a killed reset does not answer like the corpus (%v)", p, err)
		}
		if err := checkNoGarbage(root); err != nil {
			o.fail("%s: %v", p, err)
		}
		os.RemoveAll(root)
	}
	return o
}

// randomKills runs trials refreshes (a quarter of them index rebuild), each
// after a different random change, and kills each with SIGKILL at a random
// instant within the time an uninterrupted one takes.
func (h *harness) randomKills(t *committed, trials int) outcome {
	o := outcome{Scenario: "kill -9 at random instants during refresh / index rebuild (" + itoa(t.files) + " files)"}
	rng := rand.New(rand.NewPCG(h.seed, 99))
	span := map[bool]time.Duration{}
	killed := 0
	for i := range trials {
		rebuild := i%4 == 3
		args := []string{"refresh"}
		if rebuild {
			args = []string{"index", "rebuild"}
		}
		ops := 5 + rng.IntN(40)
		root, c, err := h.trialRoot(t, uint64(1000+i))
		if err == nil {
			err = c.mutate(ops)
		}
		var want snapshot
		if err == nil {
			want, err = h.cli.reference(root, h.work)
		}
		if err != nil {
			o.fail("trial %d: setup: %v", i, err)
			continue
		}
		o.Trials++
		if span[rebuild] == 0 {
			// Calibrate on this trial's own copy: time an uninterrupted run.
			cal, cc, err := h.trialRoot(t, uint64(1000+i))
			if err == nil {
				err = cc.mutate(ops)
			}
			if err != nil {
				o.fail("trial %d: calibrate: %v", i, err)
				continue
			}
			start := time.Now()
			h.cli.run(nil, append([]string{"--root", cal}, args...)...)
			span[rebuild] = time.Since(start)
			os.RemoveAll(cal)
		}
		s, err := h.cli.start(nil, append([]string{"--root", root}, args...)...)
		if err != nil {
			o.fail("trial %d: %v", i, err)
			continue
		}
		delay := time.Duration(rng.Int64N(int64(span[rebuild]) * 11 / 10))
		select {
		case <-s.done:
		case <-time.After(delay):
		}
		if r := s.kill(); r.code == -1 {
			killed++
		} else if r.code != 0 {
			o.fail("trial %d: %v exited %s", i, args, r)
		}
		if err := h.cli.checkAfter(root, t.old, want); err != nil {
			o.fail("trial %d (%v killed after %v): %v", i, args, delay.Round(time.Millisecond), err)
		}
		h.logf("random kill %d/%d: %v after %v, %d failures so far", i+1, trials, args, delay.Round(time.Millisecond), o.Failures)
		os.RemoveAll(root)
	}
	o.note("%d of %d runs killed before they ended; an uninterrupted refresh took %v, a rebuild %v",
		killed, o.Trials, span[false].Round(time.Millisecond), span[true].Round(time.Millisecond))
	return o
}
