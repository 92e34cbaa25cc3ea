package lock

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	helperEnv     = "AUTORAG_LOCK_TEST_HELPER" // lock path for the helper
	helperCommand = "autorag refresh (test helper)"
	// liveness bounds how long a test waits for something that must happen;
	// it is a hang guard, never a timing assertion.
	liveness = 30 * time.Second
)

// TestHelperProcess is not a test: when run by startHolder it takes the
// lock, reports "locked" on stdout, and holds the lock until its stdin is
// closed.
func TestHelperProcess(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("helper process for cross-process tests")
	}
	l, err := Acquire(context.Background(), path, 0, helperCommand)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(2)
	}
	fmt.Println("locked")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := l.Release(); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// holder is a child process holding the lock.
type holder struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// startHolder re-executes the test binary as TestHelperProcess and returns
// once the child holds the lock at path.
func startHolder(t *testing.T, path string) *holder {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	// Under -race a process sleeps a second before exiting unless told not
	// to; the tests wait for the helper's exit.
	race := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	cmd.Env = append(os.Environ(), helperEnv+"="+path, "GORACE="+race)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &holder{cmd: cmd, stdin: stdin}
	t.Cleanup(func() {
		_ = h.cmd.Process.Kill()
		_ = h.cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper did not take the lock: %q, %v", line, err)
	}
	return h
}

// release makes the child release the lock and exit, and checks it did so
// cleanly.
func (h *holder) release(t *testing.T) {
	t.Helper()
	_ = h.stdin.Close()
	if err := h.cmd.Wait(); err != nil {
		t.Fatalf("helper exited with %v", err)
	}
}

func lockPath(t *testing.T) string {
	return filepath.Join(t.TempDir(), ".autorag", "refresh.lock")
}

// wantBusy checks that err is a *BusyError naming the helper child.
func wantBusy(t *testing.T, err error, pid int) {
	t.Helper()
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("err = %v, want ErrBusy", err)
	}
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Holder == nil {
		t.Fatalf("err = %#v, want *BusyError with a holder", err)
	}
	host, _ := os.Hostname()
	got := *busy.Holder
	if got.PID != pid || got.Command != helperCommand || got.Host != host || got.Since.IsZero() {
		t.Errorf("holder = %+v, want pid %d, host %q, command %q", got, pid, host, helperCommand)
	}
	for _, s := range []string{fmt.Sprint(pid), helperCommand} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("busy message %q does not mention %q", err, s)
		}
	}
}

func TestAcquireBusyAcrossProcesses(t *testing.T) {
	for _, wait := range []time.Duration{0, 50 * time.Millisecond} {
		t.Run(fmt.Sprint("wait=", wait), func(t *testing.T) {
			path := lockPath(t)
			h := startHolder(t, path)
			l, err := Acquire(t.Context(), path, wait, "autorag refresh")
			if err == nil {
				_ = l.Release()
				t.Fatal("Acquire succeeded while another process holds the lock")
			}
			wantBusy(t, err, h.cmd.Process.Pid)
			h.release(t)
		})
	}
}

func TestAcquireWaitsForRelease(t *testing.T) {
	path := lockPath(t)
	h := startHolder(t, path)

	type result struct {
		l   *Lock
		err error
	}
	done := make(chan result, 1)
	go func() {
		l, err := Acquire(t.Context(), path, time.Hour, "autorag rebuild")
		done <- result{l, err}
	}()
	// While the child holds the lock, Acquire must still be waiting.
	time.Sleep(100 * time.Millisecond)
	select {
	case r := <-done:
		t.Fatalf("Acquire returned %v, %v while the lock was held", r.l, r.err)
	default:
	}
	h.release(t)

	var r result
	select {
	case r = <-done:
	case <-time.After(liveness):
		t.Fatal("Acquire still waiting after the holder released")
	}
	if r.err != nil {
		t.Fatalf("Acquire after release: %v", r.err)
	}
	defer r.l.Release()
	got, err := Inspect(path)
	if err != nil || got == nil || got.PID != os.Getpid() || got.Command != "autorag rebuild" {
		t.Errorf("Inspect = %+v, %v; want this process running autorag rebuild", got, err)
	}
}

func TestKilledHolderReleasesLock(t *testing.T) {
	path := lockPath(t)
	h := startHolder(t, path)
	if _, err := Acquire(t.Context(), path, 0, "autorag refresh"); !errors.Is(err, ErrBusy) {
		t.Fatalf("Acquire while held: %v, want ErrBusy", err)
	}
	if err := h.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = h.cmd.Wait()

	l, err := Acquire(t.Context(), path, 0, "autorag refresh")
	if err != nil {
		t.Fatalf("Acquire after the holder was killed: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
}

func TestInspectAcrossProcesses(t *testing.T) {
	path := lockPath(t)
	h := startHolder(t, path)
	got, err := Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.PID != h.cmd.Process.Pid || got.Command != helperCommand {
		t.Fatalf("Inspect = %+v, want the helper (pid %d)", got, h.cmd.Process.Pid)
	}
	h.release(t)
	if got, err := Inspect(path); got != nil || err != nil {
		t.Errorf("Inspect after release = %+v, %v; want nil, nil", got, err)
	}
}
