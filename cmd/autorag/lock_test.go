package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// startHolder starts a process that holds root's refresh lock until the
// test ends (it is killed with SIGKILL).
func startHolder(t *testing.T, root string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=hold-lock", "AUTORAG_ROOT="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("lock holder did not start: %q %v", line, err)
	}
	return cmd
}

// snapshot lists every file under .autorag with its size and mtime.
func snapshot(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(root, ".autorag"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, err := d.Info()
		if err != nil || d.IsDir() || d.Name() == "refresh.lock" {
			return nil
		}
		out = append(out, fmt.Sprintf("%s %d %s", p, fi.Size(), fi.ModTime()))
		return nil
	})
	return out
}

func TestBusyWhileLockHeld(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	writeFile(t, root, "notes/new.md", "# New\n\nChanged while locked.\n")
	holder := startHolder(t, root)
	before := snapshot(t, root)

	for _, args := range [][]string{
		{"refresh", "--json"},
		{"index", "rebuild", "--json"},
		{"index", "reset", "--yes", "--json"},
	} {
		r := cli(t, nil, append([]string{"--root", root}, args...)...)
		if r.code != 1 {
			t.Fatalf("%v while locked: exit %d, want 1\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		m := r.json(t)
		h, _ := m["holder"].(map[string]any)
		if m["ok"] != false || m["outcome"] != "busy" || h == nil || int(h["pid"].(float64)) != holder.Process.Pid || h["command"] != "test-holder" {
			t.Fatalf("%v busy envelope does not name the holder (pid %d): %s", args, holder.Process.Pid, r.stdout)
		}
	}
	if diff := cmp.Diff(before, snapshot(t, root)); diff != "" {
		t.Fatalf("a busy command changed .autorag:\n%s", diff)
	}
	st := mustOK(t, "--root", root, "status", "--json").json(t)
	if h, _ := st["lock_holder"].(map[string]any); h == nil || int(h["pid"].(float64)) != holder.Process.Pid {
		t.Errorf("status does not name the lock holder: %v", st["lock_holder"])
	}
	if st["sources_changed"] != true {
		t.Errorf("status: sources_changed = %v, want true", st["sources_changed"])
	}
	// The query path never takes the lock.
	mustOK(t, "--root", root, "query", "--json", "configuration")

	// --wait outlasts a holder that dies: the kernel drops its flock.
	go func() { time.Sleep(300 * time.Millisecond); holder.Process.Signal(syscall.SIGKILL) }()
	r := refreshJSON(t, root, "--wait", "30s")
	if r["outcome"] != "updated" {
		t.Fatalf("refresh --wait after holder died: %v", r["outcome"])
	}
}

func TestLockPathNotARegularFile(t *testing.T) {
	root := copyCorpus(t)
	if err := os.MkdirAll(filepath.Join(root, ".autorag", "refresh.lock"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"refresh"}, {"index", "rebuild"}, {"index", "reset", "--yes"}} {
		r := cli(t, nil, append([]string{"--root", root}, args...)...)
		if r.code != 3 || !strings.Contains(r.stderr, "refresh.lock") || !strings.Contains(r.stderr, "not a regular file") {
			t.Errorf("%v with a directory at the lock path: exit %d, stderr %q; want 3 and a message naming it", args, r.code, r.stderr)
		}
	}
}

// TestResetNeedsYesWithoutTerminal is defect 7: neither /dev/null (a
// character device, not a terminal) nor a pipe that says "y" is asked or
// obeyed; reset needs --yes there, and keeps every lock file.
func TestResetNeedsYesWithoutTerminal(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	for name, stdin := range map[string]io.Reader{"/dev/null": devNull, "pipe": strings.NewReader("y\n")} {
		r := cliStdin(t, stdin, nil, "--root", root, "index", "reset")
		if r.code != 2 || !strings.Contains(r.stderr, "--yes") || strings.Contains(r.stderr, "[y/N]") {
			t.Fatalf("reset without --yes, stdin %s: exit %d stderr %q, want 2, no prompt and a hint to pass --yes", name, r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(root, ".autorag", "fingerprint.json")); err != nil {
			t.Fatalf("reset without --yes (stdin %s) removed the index: %v", name, err)
		}
	}
	mustOK(t, "--root", root, "index", "reset", "--yes")
	for _, name := range []string{"fingerprint.json", "index", "mirror"} {
		if _, err := os.Lstat(filepath.Join(root, ".autorag", name)); !os.IsNotExist(err) {
			t.Errorf("reset left %s", name)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".autorag", "refresh.lock")); err != nil {
		t.Errorf("reset removed the lock file: %v", err)
	}
	if q := cli(t, nil, "--root", root, "query", "anything"); q.code != 2 || !strings.Contains(q.stderr, "autorag refresh") {
		t.Errorf("query after reset: exit %d stderr %q, want 2 with a hint", q.code, q.stderr)
	}
}

// TestQueryDoesNotWaitForWriter pauses a refresh while it has the new
// generation open for writing and shows that queries in other processes
// answer from the committed generation meanwhile.
func TestQueryDoesNotWaitForWriter(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	want := answers(t, root)
	writeFile(t, root, "notes/w.md", "# W\n\nRetry with exponential backoff, written during a refresh.\n")

	ctx, cancel := context.WithCancel(context.Background())
	writer := exec.CommandContext(ctx, os.Args[0], "--root", root, "refresh")
	writer.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1", "AUTORAG_FAILPOINT=mid-generation:pause")
	stderr, _ := writer.StderrPipe()
	if err := writer.Start(); err != nil {
		t.Fatal(err)
	}
	// However the test ends, kill the paused writer (cancel sends SIGKILL)
	// before waiting for it: it never exits by itself.
	defer func() { cancel(); writer.Wait() }()
	line, _ := bufio.NewReader(stderr).ReadString('\n')
	if !strings.Contains(line, "paused at mid-generation") {
		t.Fatalf("writer did not reach the pause point: %q", line)
	}
	if diff := cmp.Diff(want, answers(t, root)); diff != "" {
		t.Fatalf("query during a refresh did not answer from the committed generation:\n%s", diff)
	}
}
