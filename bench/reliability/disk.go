package main

import (
	"os"
	"path/filepath"
	"strings"
)

// diskFull indexes a corpus on a small tmpfs, then, for several amounts of
// space left, changes the corpus, fills the disk and refreshes: the refresh
// either fits or fails with exit 3 and a clear message, the committed index
// is still served exactly, and once space is freed the next refresh
// converges.
func (h *harness) diskFull(files int) outcome {
	o := outcome{Scenario: "disk full (ENOSPC on a tmpfs): refresh at 7 levels of free space"}
	dir := filepath.Join(h.work, "tmpfs")
	if err := mountTmpfs(dir, 48<<20); err != nil {
		o.Skipped = err.Error()
		return o
	}
	defer unmount(dir)
	root := filepath.Join(dir, "root")
	c, err := newCorpus(root, files, h.seed)
	if err == nil {
		if r := h.cli.run(nil, "--root", root, "refresh", "-q"); r.code != 0 {
			o.fail("first refresh: %s", r)
			return o
		}
	}
	var old snapshot
	if err == nil {
		old, err = h.cli.observe(root)
	}
	if err != nil {
		o.fail("setup: %v", err)
		return o
	}
	failed := 0
	for _, leave := range []int64{0, 4 << 10, 32 << 10, 128 << 10, 512 << 10, 2 << 20, 8 << 20} {
		o.Trials++
		if err := c.mutate(15); err != nil {
			o.fail("mutate: %v", err)
			continue
		}
		want, err := h.cli.reference(root, h.work)
		if err != nil {
			o.fail("reference: %v", err)
			continue
		}
		if err := fill(dir, leave); err != nil {
			o.fail("fill: %v", err)
			continue
		}
		r := h.cli.run(nil, "--root", root, "refresh", "--json")
		switch {
		case r.code == 3 && isNoSpace(r.stdout+r.stderr):
			failed++
		case r.code == 0:
		default:
			o.fail("refresh with %d bytes free: %s", leave, r)
		}
		if _, err := h.cli.checkServing(root, old, want); err != nil {
			o.fail("%d bytes free: %v", leave, err)
		}
		if q := h.cli.run(nil, "--root", root, "query", probes[0]); q.code != 0 {
			o.fail("%d bytes free: cached query path: %s", leave, q)
		}
		os.Remove(filepath.Join(dir, "filler"))
		if err := h.cli.checkConverge(root, want); err != nil {
			o.fail("%d bytes free, after freeing space: %v", leave, err)
		}
		old = want
	}
	o.note("%d of %d refreshes hit ENOSPC and exited 3 with a clear message; the others fit", failed, o.Trials)
	return o
}

// readOnly makes .autorag read-only and runs each writing command: each
// exits 3 with a clear message, and queries, status and verify go on
// serving the committed index exactly.
func (h *harness) readOnly(t *committed) outcome {
	o := outcome{Scenario: "read-only .autorag: refresh, index rebuild, index reset"}
	root, c, err := h.trialRoot(t, 77)
	if err == nil {
		err = c.mutate(10)
	}
	var want snapshot
	if err == nil {
		want, err = h.cli.reference(root, h.work)
	}
	if err != nil {
		o.fail("setup: %v", err)
		return o
	}
	defer os.RemoveAll(root)
	undo, err := bindReadOnly(filepath.Join(root, ".autorag"))
	if err != nil {
		o.Skipped = err.Error()
		return o
	}
	for _, args := range [][]string{{"refresh"}, {"index", "rebuild"}, {"index", "reset", "--yes"}} {
		o.Trials++
		r := h.cli.run(nil, append([]string{"--root", root}, args...)...)
		msg := r.stdout + r.stderr
		if r.code != 3 || !(strings.Contains(msg, "read-only file system") || strings.Contains(msg, "permission denied")) {
			o.fail("%v on a read-only .autorag: %s", args, r)
		}
		if _, err := h.cli.checkServing(root, t.old, want); err != nil {
			o.fail("%v: %v", args, err)
		}
		if q := h.cli.run(nil, "--root", root, "query", probes[1]); q.code != 0 {
			o.fail("%v: cached query path: %s", args, q)
		}
	}
	undo()
	if err := h.cli.checkConverge(root, want); err != nil {
		o.fail("after making it writable: %v", err)
	}
	return o
}
