package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
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
	quiet(lines, 3*time.Second) // every catch-up tick done
	if err := write("new/sub/x.md", "the badgerword"); err != nil {
		return err
	}
	if err := write("skip/y.md", "the lynxword"); err != nil {
		return err
	}
	o.Trials += 2
	if why := h.byEvents(root, lines, map[string]string{"badgerword": "new/sub/x.md", "lynxword": "skip/y.md"}); why != "" {
		o.fail("trial %d: edits in the directory created and the one un-ignored during the overflow: %s", n, why)
	}
	return nil
}

// quiet drains lines until none came for d.
func quiet(lines <-chan string, d time.Duration) {
	for {
		select {
		case _, ok := <-lines:
			if !ok {
				return
			}
		case <-time.After(d):
			return
		}
	}
}

// byEvents waits for event ticks until every word is found at its path;
// it returns why not: no event tick within a minute, or a tick of another
// trigger (a walk would have rescued what events missed).
func (h *harness) byEvents(root string, lines <-chan string, want map[string]string) string {
	deadline := time.After(time.Minute)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return "watch exited"
			}
			if !strings.Contains(l, `"trigger":"event"`) {
				return "a tick not made by events: " + l[:min(len(l), 80)]
			}
			missing := ""
			for word, path := range want {
				r := h.cli.run(nil, "--root", root, "query", "--json", "--mode", "bm25", "--no-cache", word)
				if r.code != 0 || !strings.Contains(r.stdout, `"path":"`+path+`"`) {
					missing = path
				}
			}
			if missing == "" {
				return ""
			}
		case <-deadline:
			return "no event tick indexed them within a minute"
		}
	}
}

// flood, while the watch is stopped: 12,000 files made and removed in the
// root (a watched directory: some 24,000 events, past the default queue of
// 16,384, which is then full), then a new directory tree with a file and
// the ignore file emptied: their events are among those lost.
func flood(root string, write func(rel, s string) error) error {
	for i := range 12000 {
		p := filepath.Join(root, fmt.Sprintf("flood-%05d.tmp", i))
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return err
		}
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	if err := write("new/sub/x.md", "the otterword"); err != nil {
		return err
	}
	return write(".gitignore", "")
}
