package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// contention runs refreshers and queriers in loops over a corpus that a
// mutator keeps changing, while a killer sends SIGKILL to a random running
// refresher every so often. Every query must succeed, every refresh must
// exit 0 or 1 (or die by the killer's hand); at the end the index must
// verify and answer exactly like a fresh rebuild of the final corpus.
func (h *harness) contention(t *committed, refreshers, queriers int, d time.Duration) outcome {
	o := outcome{Scenario: fmt.Sprintf("contention: %d refreshers + %d queriers + kill -9 loop for %v over a changing corpus", refreshers, queriers, d)}
	root, c, err := h.trialRoot(t, 4242)
	if err != nil {
		o.fail("setup: %v", err)
		return o
	}
	defer os.RemoveAll(root)
	var (
		mu         sync.Mutex
		running    = map[*started]bool{}
		queries    atomic.Int64
		refreshes  atomic.Int64
		killed     atomic.Int64
		badQueries atomic.Int64
		badExits   atomic.Int64
	)
	record := func(format string, args ...any) {
		mu.Lock()
		o.note(format, args...)
		mu.Unlock()
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range refreshers {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				s, err := h.cli.start(nil, "--root", root, "refresh", "-q")
				if err != nil {
					record("start refresh: %v", err)
					badExits.Add(1)
					return
				}
				mu.Lock()
				running[s] = true
				mu.Unlock()
				r := s.wait()
				mu.Lock()
				delete(running, s)
				mu.Unlock()
				refreshes.Add(1)
				if r.code != 0 && r.code != 1 && r.code != -1 {
					badExits.Add(1)
					record("refresh: %s", r)
				}
			}
		})
	}
	for i := range queriers {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				q := probes[(i+n)%len(probes)]
				args := []string{"--root", root, "query", "--json", q}
				if n%2 == 0 {
					args = append(args, "--no-cache")
				}
				r := h.cli.run(nil, args...)
				queries.Add(1)
				if m := r.obj(); r.code != 0 || m == nil || m["ok"] != true {
					badQueries.Add(1)
					record("query %q: %s", q, r)
				}
			}
		})
	}
	wg.Go(func() { // mutator
		for {
			select {
			case <-stop:
				return
			case <-time.After(150 * time.Millisecond):
			}
			mu.Lock()
			err := c.mutate(3)
			mu.Unlock()
			if err != nil {
				record("mutate: %v", err)
			}
		}
	})
	wg.Go(func() { // killer
		rng := rand.New(rand.NewPCG(h.seed, 5))
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Duration(100+rng.IntN(400)) * time.Millisecond):
			}
			mu.Lock()
			var victims []*started
			for s := range running {
				victims = append(victims, s)
			}
			mu.Unlock()
			if len(victims) > 0 {
				v := victims[rng.IntN(len(victims))]
				_ = v.cmd.Process.Kill()
				killed.Add(1)
			}
		}
	})
	time.Sleep(d)
	close(stop)
	wg.Wait()
	o.Trials = int(queries.Load() + refreshes.Load())
	o.Failures = int(badQueries.Load() + badExits.Load())
	if r := h.cli.run(nil, "--root", root, "refresh", "-q"); r.code != 0 {
		o.fail("final refresh: %s", r)
	}
	if r := h.cli.run(nil, "--root", root, "index", "verify"); r.code != 0 {
		o.fail("final verify: %s", r)
	}
	got, err := h.cli.observe(root)
	want, rerr := h.cli.reference(root, h.work)
	switch {
	case err != nil || rerr != nil:
		o.fail("final check: %v %v", err, rerr)
	case !got.equal(want):
		o.fail("the final index does not answer like a fresh rebuild of the final corpus")
	}
	if err := checkNoGarbage(root); err != nil {
		o.fail("%v", err)
	}
	o.note("%d queries, %d refreshes, %d kills", queries.Load(), refreshes.Load(), killed.Load())
	return o
}
