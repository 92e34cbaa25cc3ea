package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// outcome is one row of the report.
type outcome struct {
	Scenario string
	Trials   int
	Failures int
	Skipped  string // why the scenario did not run, if it did not
	Notes    []string
}

func (o *outcome) fail(format string, args ...any) {
	o.Failures++
	if len(o.Notes) < 8 {
		o.Notes = append(o.Notes, fmt.Sprintf(format, args...))
	}
}

func (o *outcome) note(format string, args ...any) {
	if len(o.Notes) < 8 {
		o.Notes = append(o.Notes, fmt.Sprintf(format, args...))
	}
}

// harness holds what every scenario shares.
type harness struct {
	cli  *cli
	work string // scratch directory, removed at the end
	log  io.Writer
	seed uint64
}

func (h *harness) logf(format string, args ...any) {
	fmt.Fprintf(h.log, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// committed is a root indexed once, kept as a template that trials copy.
type committed struct {
	root  string
	files int
	old   snapshot // what it answers
}

// newCommitted generates a tree of files documents and refreshes it.
func (h *harness) newCommitted(name string, files int) (*committed, error) {
	root := filepath.Join(h.work, name+"-template")
	if _, err := newCorpus(root, files, h.seed); err != nil {
		return nil, err
	}
	if r := h.cli.run(nil, "--root", root, "refresh", "-q"); r.code != 0 {
		return nil, fmt.Errorf("first refresh of %s: %s", name, r)
	}
	old, err := h.cli.observe(root)
	if err != nil {
		return nil, err
	}
	return &committed{root: root, files: files, old: old}, nil
}

// trialRoot copies the template to a fresh root and returns it with a
// corpus that mutates it deterministically for seed.
func (h *harness) trialRoot(t *committed, seed uint64) (string, *corpus, error) {
	root, err := os.MkdirTemp(h.work, "trial-")
	if err != nil {
		return "", nil, err
	}
	if err := copyAll(t.root, root); err != nil {
		return "", nil, err
	}
	c := &corpus{root: root, rng: rand.New(rand.NewPCG(seed, 7)), next: 100000}
	return root, c, nil
}
