//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// testWrapper builds rsswrap into a temporary work dir, the way the harness
// does.
func testWrapper(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds rsswrap with the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	wrap, err := buildWrapper(context.Background(), t.TempDir())
	if err != nil {
		t.Fatalf("buildWrapper: %v", err)
	}
	return wrap
}

func TestRunWrapped(t *testing.T) {
	wrap := testWrapper(t)
	ctx := context.Background()
	dir := t.TempDir()
	opts := runOpts{Dir: dir, Env: append(os.Environ(), "RSSWRAP_TEST=yes"), Wrap: wrap}

	// Output, working directory and environment pass through; the report
	// descriptor does not reach the child.
	s, err := runProcess(ctx, opts, "sh", "-c", `echo "out $RSSWRAP_TEST"; pwd; echo err >&2; [ -e /dev/fd/3 ] && echo leaked; exit 3`)
	if err != nil {
		t.Fatal(err)
	}
	if s.Exit != 3 || s.Signal != 0 {
		t.Errorf("exit %d, signal %d; want 3, 0", s.Exit, s.Signal)
	}
	if got := string(s.Stdout); !strings.HasPrefix(got, "out yes\n") || strings.Contains(got, "leaked") {
		t.Errorf("stdout %q: want the environment passed and fd 3 not leaked", got)
	}
	if wd := strings.Split(strings.TrimSpace(string(s.Stdout)), "\n"); len(wd) < 2 || !sameDir(wd[1], dir) {
		t.Errorf("child ran in %q, want %s", wd, dir)
	}
	if string(s.Stderr) != "err\n" {
		t.Errorf("stderr %q, want %q", s.Stderr, "err\n")
	}
	if s.Wall <= 0 || s.MaxRSSKB <= 0 {
		t.Errorf("wall %v, max RSS %d KiB: want both positive", s.Wall, s.MaxRSSKB)
	}

	s, err = runProcess(ctx, opts, "sh", "-c", "kill -9 $$")
	if err != nil {
		t.Fatal(err)
	}
	if s.Exit != -1 || s.Signal != 9 || !strings.Contains(describeFailure(s), "signal 9") {
		t.Errorf("killed child: exit %d, signal %d, %q", s.Exit, s.Signal, describeFailure(s))
	}

	if _, err := runProcess(ctx, opts, "/nonexistent/program"); err == nil || !strings.Contains(err.Error(), "rsswrap: start") {
		t.Errorf("missing program: err = %v, want rsswrap's start error", err)
	}
}

func sameDir(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// TestWrappedRSSIndependentOfHarness is the reason for rsswrap: on Linux a
// child forked straight from a big process reports that process's peak RSS.
func TestWrappedRSSIndependentOfHarness(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the inherited high-water mark is Linux behaviour")
	}
	wrap := testWrapper(t)
	const big = 256 << 20
	ballast := make([]byte, big)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	ctx := context.Background()
	opts := runOpts{Dir: t.TempDir(), Env: os.Environ(), DiscardStdout: true}
	direct, err := runProcess(ctx, opts, "true")
	if err != nil {
		t.Fatal(err)
	}
	opts.Wrap = wrap
	wrapped, err := runProcess(ctx, opts, "true")
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(ballast)
	t.Logf("`true` peak RSS: %d KiB direct from a process holding %d MiB, %d KiB through rsswrap",
		direct.MaxRSSKB, big>>20, wrapped.MaxRSSKB)
	if wrapped.MaxRSSKB <= 0 || wrapped.MaxRSSKB > 16<<10 {
		t.Errorf("through rsswrap `true` peaked at %d KiB, want a few MiB at most", wrapped.MaxRSSKB)
	}
}

// TestFloor: a floor discards its first run, and a run that exits non-zero
// ends it with the exit code and the last line of stderr.
func TestFloor(t *testing.T) {
	h := &harness{env: os.Environ()}
	ctx := context.Background()
	if r := h.floor(ctx, "true", 3, t.TempDir(), "true"); r.Err != "" || r.Summary.N != 3 {
		t.Errorf("floor of `true`: err %q, %d samples; want none, 3", r.Err, r.Summary.N)
	}
	r := h.floor(ctx, "fails", 3, t.TempDir(), "sh", "-c", "echo boom >&2; exit 3")
	if want := "run 1: exit 3: boom"; r.Err != want {
		t.Errorf("floor of a failing command: err %q, want %q", r.Err, want)
	}
}
