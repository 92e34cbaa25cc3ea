package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchKeepsIndexLive edits files, directories and .gitignore while
// watch runs; a query in another process reflects each change. Watch stays
// alive after its start line and exits 0 on SIGTERM.
func TestWatchKeepsIndexLive(t *testing.T) {
	root := copyCorpus(t)
	w := startWatch(t, root, nil, "--debounce", "100ms")
	w.waitTick("the start tick", func(m map[string]any) bool { return trigger(m) == "start" })

	steps := []struct {
		name string
		do   func()
		text string
		want []string
	}{
		{"create a file", func() { writeFile(t, root, "a.md", "# A\n\nThe wombat digs.\n") }, "wombat", []string{"a.md"}},
		{"modify it", func() { writeFile(t, root, "a.md", "# A\n\nThe numbat digs.\n") }, "numbat", []string{"a.md"}},
		{"rename it", func() { renameFile(t, root, "a.md", "b.md") }, "numbat", []string{"b.md"}},
		{"delete it", func() { os.Remove(filepath.Join(root, "b.md")) }, "numbat", nil},
		{"create a directory with files", func() {
			dir := filepath.Join(root, "zoo", "deep")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, root, "zoo/deep/q.txt", "a quokka in the deep zoo\n")
			writeFile(t, root, "zoo/r.txt", "a quokka at the zoo gate\n")
		}, "quokka", []string{"zoo/deep/q.txt", "zoo/r.txt"}},
		{"rename the directory", func() { renameFile(t, root, "zoo", "park") }, "quokka", []string{"park/deep/q.txt", "park/r.txt"}},
		{"write into the renamed directory", func() { writeFile(t, root, "park/deep/s.txt", "a quokka arrives\n") },
			"quokka", []string{"park/deep/q.txt", "park/deep/s.txt", "park/r.txt"}},
		{"ignore a subdirectory", func() { writeFile(t, root, ".gitignore", "deep/\n") }, "quokka", []string{"park/r.txt"}},
		{"unignore it", func() { writeFile(t, root, ".gitignore", "# nothing\n") },
			"quokka", []string{"park/deep/q.txt", "park/deep/s.txt", "park/r.txt"}},
		{"delete the directory", func() { os.RemoveAll(filepath.Join(root, "park")) }, "quokka", nil},
	}
	for _, s := range steps {
		s.do()
		eventually(t, root, s.text, s.want...)
		t.Logf("%s: seen", s.name)
	}
	if code := w.stop(); code != 0 {
		t.Fatalf("watch exit %d after SIGTERM, want 0; stderr:\n%s", code, w.stderrText())
	}
	for _, m := range w.seen {
		if o := outcome(m); o == "error" || o == "busy" {
			t.Errorf("tick %v: %s %v", m["tick"], o, m["refresh"])
		}
	}
}

// TestWatchBurstIsCoalesced writes 1,000 events (500 files created, then
// each rewritten) and counts the refreshes until all are indexed.
func TestWatchBurstIsCoalesced(t *testing.T) {
	root := copyCorpus(t)
	w := startWatch(t, root, nil)
	start := w.waitTick("the start tick", func(m map[string]any) bool { return trigger(m) == "start" })
	base := num(refreshOf(start), "files")
	for i := range 500 {
		writeFile(t, root, fmt.Sprintf("burst/f%03d.txt", i), fmt.Sprintf("burst file %d draft\n", i))
	}
	for i := range 500 {
		writeFile(t, root, fmt.Sprintf("burst/f%03d.txt", i), fmt.Sprintf("burst file %d final\n", i))
	}
	w.waitTick("every burst file indexed", func(m map[string]any) bool {
		return num(refreshOf(m), "files") == base+500 && outcome(m) != "busy"
	})
	eventually(t, root, "final", burstPaths(500)...)
	refreshes := 0
	for _, m := range w.seen {
		if trigger(m) == "event" {
			refreshes++
		}
	}
	t.Logf("1,000 events (500 creates + 500 rewrites): %d event refreshes", refreshes)
	// Without coalescing this would be about a thousand; with the default
	// debounce a burst costs a handful whatever the machine's speed.
	if refreshes > 50 {
		t.Errorf("1,000 events caused %d refreshes, want a bounded few", refreshes)
	}
	if code := w.stop(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func burstPaths(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("burst/f%03d.txt", i)
	}
	return out
}

// TestWatchBusyTicksRetry holds the lock in another process while files
// change: ticks report busy, and every change lands after the release.
func TestWatchBusyTicksRetry(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	w := startWatch(t, root, nil, "--debounce", "50ms")
	w.waitTick("the start tick", func(m map[string]any) bool { return trigger(m) == "start" })
	holder := startHolder(t, root)
	writeFile(t, root, "held1.md", "# H1\n\nThe tapir waits.\n")
	busy := w.waitTick("a busy tick", func(m map[string]any) bool { return outcome(m) == "busy" })
	if r := refreshOf(busy); r["ok"] != false || r["holder"] == nil {
		t.Errorf("busy tick's envelope: %v, want ok:false with the holder", r)
	}
	writeFile(t, root, "held2.md", "# H2\n\nAnother tapir waits.\n")
	w.waitTick("a second busy tick", func(m map[string]any) bool { return outcome(m) == "busy" })
	if got := bm25Paths(t, root, "tapir"); len(got) != 0 {
		t.Fatalf("indexed while the lock was held: %v", got)
	}
	holder.Process.Kill()
	holder.Wait()
	eventually(t, root, "tapir", "held1.md", "held2.md")
	if code := w.stop(); code != 0 {
		t.Fatalf("exit %d after busy ticks, want 0", code)
	}
}

// TestWatchSIGTERMDuringTick stops watch while its tick is inside the
// build (paused there by a failpoint): it exits 0, the index verifies and
// still serves the last commit, and the next refresh takes the change.
func TestWatchSIGTERMDuringTick(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	writeFile(t, root, "late.md", "# Late\n\nThe okapi arrives late.\n")
	w := startWatch(t, root, []string{"AUTORAG_FAILPOINT=mid-generation:pause"}, "--grace", "100ms")
	deadline := time.Now().Add(waitLimit)
	for !strings.Contains(w.stderrText(), "paused at mid-generation") {
		if time.Now().After(deadline) {
			t.Fatalf("the tick never reached the build; stderr:\n%s", w.stderrText())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code := w.stop(); code != 0 {
		t.Fatalf("exit %d after SIGTERM during a tick, want 0; stderr:\n%s", code, w.stderrText())
	}
	if v := cli(t, nil, "--root", root, "index", "verify", "--json"); v.code != 0 {
		t.Fatalf("index verify after the stop: exit %d %s", v.code, v.stdout)
	}
	if got := bm25Paths(t, root, "okapi"); len(got) != 0 {
		t.Fatalf("an abandoned tick committed: %v", got)
	}
	refreshJSON(t, root)
	eventually(t, root, "okapi", "late.md")
}

// TestWatchOnce runs one tick and exits 0, also when the lock is held.
func TestWatchOnce(t *testing.T) {
	root := copyCorpus(t)
	r := cli(t, nil, "--root", root, "watch", "--once", "--json")
	if r.code != 0 || outcome(r.json(t)) != "rebuilt" {
		t.Fatalf("watch --once: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	startHolder(t, root)
	r = cli(t, nil, "--root", root, "watch", "--once", "--json")
	if r.code != 0 || outcome(r.json(t)) != "busy" {
		t.Fatalf("watch --once while locked: exit %d %s, want 0 and busy", r.code, r.stdout)
	}
}

// TestWatchSaveStormsDoNotReindex: an editor's temp file renamed over the
// original with the same bytes, chmod, identical rewrites: no file is
// re-indexed; only the real edit that follows is.
func TestWatchSaveStormsDoNotReindex(t *testing.T) {
	root := copyCorpus(t)
	writeFile(t, root, "doc.md", "# Doc\n\nThe serval hunts.\n")
	writeFile(t, root, "sentinel.md", "# Sentinel\n\nNothing yet.\n")
	w := startWatch(t, root, nil, "--debounce", "50ms")
	start := w.waitTick("the start tick", func(m map[string]any) bool { return trigger(m) == "start" })
	p := filepath.Join(root, "doc.md")
	for range 5 {
		tmp := filepath.Join(root, ".doc.md.tmp")
		writeFile(t, root, ".doc.md.tmp", "# Doc\n\nThe serval hunts.\n")
		if err := os.Rename(tmp, p); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, "doc.md", "# Doc\n\nThe serval hunts.\n")
	}
	// Let the storm's ticks run, then make one real edit.
	w.waitTick("a storm tick", func(m map[string]any) bool { return trigger(m) == "event" })
	writeFile(t, root, "sentinel.md", "# Sentinel\n\nThe caracal arrived.\n")
	eventually(t, root, "caracal", "sentinel.md")
	w.waitTick("the sentinel's tick", func(m map[string]any) bool { return outcome(m) == "updated" })
	indexed := 0
	for _, m := range w.seen[1:] {
		indexed += num(refreshOf(m), "files_indexed")
	}
	if indexed != 1 {
		t.Errorf("after the storm and one edit, %d files were re-indexed, want 1 (ticks: %v)", indexed, w.seen[1:])
	}
	if gen := refreshOf(start)["generation"]; gen == nil {
		t.Fatal("start tick without a generation")
	}
	if code := w.stop(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// TestRefreshSeesRacyEdit edits a file keeping its size and mtime, in the
// manifest's own timestamp tick (a coarse clock): refresh must see it.
func TestRefreshSeesRacyEdit(t *testing.T) {
	root := copyCorpus(t)
	writeFile(t, root, "racy.md", "# Racy\n\nThe gerenuk stands.\n")
	refreshJSON(t, root)
	p := filepath.Join(root, "racy.md")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	man := filepath.Join(root, ".autorag", "mirror", "manifest.bin")
	if err := os.Chtimes(man, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "racy.md", "# Racy\n\nThe dikdiks stand.\n")
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	r := refreshJSON(t, root)
	if r["outcome"] != "updated" || num(r, "modified") != 1 {
		t.Fatalf("same-size same-mtime edit: outcome %v modified %d, want updated 1", r["outcome"], num(r, "modified"))
	}
	eventually(t, root, "dikdiks", "racy.md")
}
