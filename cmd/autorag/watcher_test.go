package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// waitLimit bounds every wait for a watcher to react: generous, because
// two shared cores run the race detector; a test never asserts a duration.
const waitLimit = 90 * time.Second

// watcher is `autorag watch --json` running in a child process.
type watcher struct {
	t     *testing.T
	cmd   *exec.Cmd
	ticks chan map[string]any
	exit  chan int

	mu     sync.Mutex
	stderr bytes.Buffer
	seen   []map[string]any // every tick read so far
}

// startWatch starts watch on root and waits for its start line.
func startWatch(t *testing.T, root string, env []string, args ...string) *watcher {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--root", root, "watch", "--json"}, args...)...)
	cmd.Env = append(append(cleanEnv(), "AUTORAG_TEST_MAIN=1"), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &watcher{t: t, cmd: cmd, ticks: make(chan map[string]any, 4096), exit: make(chan int, 1)}
	ready := make(chan struct{})
	var readers sync.WaitGroup
	readers.Go(func() { w.readTicks(out) })
	readers.Go(func() { w.readStderr(errPipe, ready) })
	go func() {
		readers.Wait()
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		w.exit <- code
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})
	select {
	case <-ready:
	case code := <-w.exit:
		t.Fatalf("watch exited %d before its start line; stderr:\n%s", code, w.stderrText())
	case <-time.After(waitLimit):
		t.Fatalf("no start line; stderr:\n%s", w.stderrText())
	}
	return w
}

func (w *watcher) readTicks(out interface{ Read([]byte) (int, error) }) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			m = map[string]any{"unparsable": sc.Text()}
		}
		w.ticks <- m
	}
}

func (w *watcher) readStderr(r interface{ Read([]byte) (int, error) }, ready chan struct{}) {
	sc := bufio.NewScanner(r)
	once := sync.Once{}
	for sc.Scan() {
		w.mu.Lock()
		w.stderr.WriteString(sc.Text() + "\n")
		w.mu.Unlock()
		if strings.HasPrefix(sc.Text(), "watching ") {
			once.Do(func() { close(ready) })
		}
	}
}

func (w *watcher) stderrText() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stderr.String()
}

// waitTick reads ticks until one satisfies ok and returns it.
func (w *watcher) waitTick(what string, ok func(map[string]any) bool) map[string]any {
	w.t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case m := <-w.ticks:
			w.seen = append(w.seen, m)
			if _, bad := m["unparsable"]; bad {
				w.t.Fatalf("watch printed a line that is not JSON: %v", m["unparsable"])
			}
			if ok(m) {
				return m
			}
		case code := <-w.exit:
			w.t.Fatalf("watch exited %d while waiting for %s; stderr:\n%s", code, what, w.stderrText())
		case <-deadline:
			w.t.Fatalf("no tick for %s within %s; ticks: %v\nstderr:\n%s", what, waitLimit, w.seen, w.stderrText())
		}
	}
}

// stop sends SIGTERM and returns the exit code.
func (w *watcher) stop() int {
	w.t.Helper()
	if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		w.t.Fatal(err)
	}
	for {
		select {
		case m := <-w.ticks:
			w.seen = append(w.seen, m)
		case code := <-w.exit:
			return code
		case <-time.After(waitLimit):
			w.t.Fatalf("watch did not exit after SIGTERM; stderr:\n%s", w.stderrText())
		}
	}
}

func outcome(m map[string]any) string { s, _ := m["outcome"].(string); return s }
func trigger(m map[string]any) string { s, _ := m["trigger"].(string); return s }

// refreshOf is the refresh envelope inside a tick.
func refreshOf(m map[string]any) map[string]any { r, _ := m["refresh"].(map[string]any); return r }

// eventually polls a query in another process until it finds exactly want
// (sorted paths), within waitLimit.
func eventually(t *testing.T, root, text string, want ...string) {
	t.Helper()
	slices.Sort(want)
	deadline := time.Now().Add(waitLimit)
	var got []string
	for time.Now().Before(deadline) {
		got = bm25Paths(t, root, text)
		slices.Sort(got)
		if slices.Equal(got, want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("query %q: got %v, want %v within %s", text, got, want, waitLimit)
}
