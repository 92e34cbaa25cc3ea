package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// watchOverflow makes the kernel drop a running watch's events for real:
// the watch process is stopped (SIGSTOP) while more file events than
// fs.inotify.max_queued_events happen, among them a directory tree
// created and an ignore file edited (un-ignoring a directory), then
// continued. The watch must report the overflow and catch up, and later
// edits inside the new directory and the un-ignored one must arrive as
// events (--reconcile 0: no periodic walk rescues them).
func (h *harness) watchOverflow(trials int) outcome {
	o := outcome{Scenario: "watch × (inotify overflow, directory created during it, ignore-file edit during it), --reconcile 0"}
	for i := range trials {
		if err := h.overflowTrial(&o, i); err != nil {
			o.fail("trial %d: %v", i, err)
		}
	}
	return o
}

func (h *harness) overflowTrial(o *outcome, n int) error {
	root, err := os.MkdirTemp(h.work, "overflow-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	write := func(rel, s string) error {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(s+"\n"), 0o644)
	}
	for rel, s := range map[string]string{"a.md": "plain heronword", ".gitignore": "skip/", "skip/y.md": "hidden"} {
		if err := write(rel, s); err != nil {
			return err
		}
	}
	w, lines, errs, err := h.cli.startStreams(nil, "--root", root, "watch", "--json", "--debounce", "50ms", "--reconcile", "0", "--compact-idle", "0")
	if err != nil {
		return err
	}
	defer w.kill()
	notices := make(chan string, 64)
	go func() {
		for l := range errs {
			if strings.Contains(l, "overflow") {
				notices <- l
			}
		}
	}()
	if !waitLine(lines, `"trigger":"start"`) {
		return fmt.Errorf("no start tick")
	}
	if err := w.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		return err
	}
	err = flood(root, write)
	if cerr := w.cmd.Process.Signal(syscall.SIGCONT); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	o.Trials++
	select {
	case <-notices:
	case <-w.done:
		return fmt.Errorf("watch exited: %s", w.res)
	}
	if !waitLine(lines, `"trigger":"reconcile"`) {
		o.fail("trial %d: no catch-up walk after the overflow", n)
		return nil
	}
	if err := write("new/sub/x.md", "the badgerword"); err != nil {
		return err
	}
	if err := write("skip/y.md", "the lynxword"); err != nil {
		return err
	}
	waitLine(lines, `"trigger":"event"`)
	for word, want := range map[string]string{"badgerword": "new/sub/x.md", "lynxword": "skip/y.md"} {
		o.Trials++
		if !h.eventually(root, word, want, lines) {
			o.fail("trial %d: %s (edited after the overflow) never indexed by an event tick", n, want)
		}
	}
	return nil
}

// flood, while the watch is stopped: a new directory tree with a file,
// the ignore file emptied, then 12,000 files made and removed in the root
// (a watched directory: some 24,000 events, past the default queue of
// 16,384 events).
func flood(root string, write func(rel, s string) error) error {
	if err := write("new/sub/x.md", "the otterword"); err != nil {
		return err
	}
	if err := write(".gitignore", ""); err != nil {
		return err
	}
	for i := range 12000 {
		p := filepath.Join(root, fmt.Sprintf("flood-%05d.tmp", i))
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return err
		}
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	return nil
}

// eventually queries word until it is found at want, waiting for the
// watch's next ticks (a minute at most, through waitLine).
func (h *harness) eventually(root, word, want string, lines <-chan string) bool {
	for range 3 {
		r := h.cli.run(nil, "--root", root, "query", "--json", "--mode", "bm25", "--no-cache", word)
		if r.code == 0 && strings.Contains(r.stdout, `"path":"`+want+`"`) {
			return true
		}
		if !waitLine(lines, `"trigger":"event"`) {
			return false
		}
	}
	return false
}
