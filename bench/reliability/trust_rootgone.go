package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// rootGoneTrials is how many times watchRootGone deletes a watched root.
const rootGoneTrials = 20

// rootGoneFiles is the size of the root: walks long enough to be in flight.
const rootGoneFiles = 1500

// watchRootGone deletes the root of a running `autorag watch --reconcile
// 50ms` while its ticks run (an edit loop keeps event ticks in flight too)
// and checks, a second later, that no tick created the root again: a
// refresh must never recreate a root the user deleted (it would commit an
// empty index there).
func (h *harness) watchRootGone() outcome {
	o := outcome{Scenario: "watch × root deleted during its ticks (--reconcile 50ms, edits in flight): the root is never created again"}
	for i := range rootGoneTrials {
		o.Trials++
		if err := h.rootGoneTrial(); err != nil {
			o.fail("trial %d: %v", i, err)
		}
	}
	return o
}

func (h *harness) rootGoneTrial() error {
	parent, err := os.MkdirTemp(h.work, "rootgone-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(parent)
	root := filepath.Join(parent, "root")
	for i := range rootGoneFiles {
		p := filepath.Join(root, fmt.Sprintf("d%d", i%20), fmt.Sprintf("f%02d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("# F%d\n\nthe heronword %d\n", i, i)), 0o644); err != nil {
			return err
		}
	}
	w, lines, _, err := h.cli.startStreams(nil, "--root", root, "watch", "--json", "--debounce", "5ms", "--reconcile", "50ms", "--compact-idle", "0")
	if err != nil {
		return err
	}
	defer w.kill()
	if !waitLine(lines, `"trigger":"start"`) {
		return fmt.Errorf("no start tick")
	}
	go quiet(lines, time.Hour) // keep stdout drained
	// Edits keep event ticks in flight; the removal retries while a tick
	// writes under .autorag.
	for i := range 20 {
		_ = os.WriteFile(filepath.Join(root, "d0", "f00.md"), []byte(fmt.Sprintf("edit %d\n", i)), 0o644)
		time.Sleep(time.Duration(i%7) * time.Millisecond)
	}
	for err := os.RemoveAll(root); err != nil; err = os.RemoveAll(root) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(time.Second) // about 20 reconciles
	if _, err := os.Lstat(root); !os.IsNotExist(err) {
		ents, _ := os.ReadDir(root)
		names := []string{}
		for _, e := range ents {
			names = append(names, e.Name())
		}
		return fmt.Errorf("the deleted root exists again (holding %v)", names)
	}
	select {
	case <-w.done:
		return fmt.Errorf("watch exited on the deleted root: %s", w.res)
	default:
	}
	return nil
}
