package watch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine"
)

const waitLimit = 60 * time.Second

func newService(t *testing.T, files map[string]string) *engine.Service {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		write(t, root, rel, content)
	}
	s := engine.DefaultSettings()
	s.Embedder = nil
	e, err := engine.New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	svc := engine.NewService(e, 1<<20)
	t.Cleanup(func() { svc.Close() })
	return svc
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// running is Run on its own goroutine, its ticks and notices on channels.
type running struct {
	ticks   chan Tick
	notices chan string
	ready   chan Ready
	cancel  context.CancelFunc
	err     chan error
}

func start(t *testing.T, svc *engine.Service, r *runner) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &running{ticks: make(chan Tick, 1024), notices: make(chan string, 16), ready: make(chan Ready, 1),
		cancel: cancel, err: make(chan error, 1)}
	r.o.OnTick = func(tk Tick) { w.ticks <- tk }
	r.o.OnNotice = func(s string) { w.notices <- s }
	r.o.OnReady = func(rd Ready) { w.ready <- rd }
	r.e, r.done = svc.Engine(), make(chan result, 1)
	r.o = r.o.withDefaults()
	go func() { w.err <- r.run(ctx) }()
	t.Cleanup(func() { cancel(); <-w.err })
	return w
}

func (w *running) waitTick(t *testing.T, what string, ok func(Tick) bool) Tick {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case tk := <-w.ticks:
			if ok(tk) {
				return tk
			}
		case <-deadline:
			t.Fatalf("no tick for %s", what)
		}
	}
}

func found(t *testing.T, svc *engine.Service, text string) []string {
	t.Helper()
	res, _, err := svc.Query(context.Background(), engine.QueryOptions{Text: text, Mode: engine.ModeBM25, K: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range res.Results {
		out = append(out, r.Path)
	}
	return out
}

// TestRunAPI drives Run as a server would: ticks arrive on the callback,
// the service answers from each commit, cancelling returns nil.
func TestRunAPI(t *testing.T) {
	svc := newService(t, map[string]string{"a.md": "# A\n\nThe heron.\n"})
	w := start(t, svc, &runner{o: Options{Debounce: 20 * time.Millisecond}})
	if rd := <-w.ready; rd.Mode != "events" || rd.Dirs != 1 {
		t.Errorf("ready: %+v, want events mode with 1 directory", rd)
	}
	w.waitTick(t, "start", func(tk Tick) bool { return tk.Trigger == TriggerStart && tk.Outcome == engine.OutcomeRebuilt })
	write(t, svc.Engine().Layout.Root, "sub/b.md", "# B\n\nAnother heron.\n")
	tk := w.waitTick(t, "the new file", func(tk Tick) bool { return tk.Refresh != nil && tk.Refresh.Added == 1 })
	if tk.Trigger != TriggerEvent {
		t.Errorf("trigger %s, want event", tk.Trigger)
	}
	if diff := cmp.Diff([]string{"a.md", "sub/b.md"}, found(t, svc, "heron")); diff != "" {
		t.Errorf("query after the tick (-want +got):\n%s", diff)
	}
	w.cancel()
	if err := <-w.err; err != nil {
		t.Errorf("Run after cancel: %v, want nil", err)
	}
	w.err <- nil // for the cleanup
}

// TestRunFallsBackToPolling: when the kernel refuses a watch (ENOSPC, as
// at fs.inotify.max_user_watches), Run says so and polls instead.
func TestRunFallsBackToPolling(t *testing.T) {
	svc := newService(t, map[string]string{"a.md": "# A\n\nThe heron.\n"})
	refuse := func(string) error { return fmt.Errorf("inotify_add_watch: %w", syscall.ENOSPC) }
	w := start(t, svc, &runner{o: Options{FallbackPoll: 20 * time.Millisecond}, addWatch: refuse})
	select {
	case n := <-w.notices:
		if !strings.Contains(n, "max_user_watches") || !strings.Contains(n, "polling") {
			t.Errorf("notice %q does not say why and what instead", n)
		}
	case <-time.After(waitLimit):
		t.Fatal("no notice of the fall-back")
	}
	if rd := <-w.ready; rd.Mode != "poll" {
		t.Errorf("ready: %+v, want poll mode", rd)
	}
	w.waitTick(t, "start", func(tk Tick) bool { return tk.Trigger == TriggerStart })
	write(t, svc.Engine().Layout.Root, "b.md", "# B\n\nA polled heron.\n")
	w.waitTick(t, "a poll tick adding b.md", func(tk Tick) bool {
		return tk.Trigger == TriggerPoll && tk.Refresh != nil && tk.Refresh.Added == 1
	})
}

// TestRunCompactsWhenIdle: edits leave replaced chunks in the segments;
// after a quiet period an idle tick merges them, and queries answer the same.
func TestRunCompactsWhenIdle(t *testing.T) {
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d%03d.md", i)] = fmt.Sprintf("# D%d\n\nThe heron %d.\n", i, i)
	}
	svc := newService(t, files)
	w := start(t, svc, &runner{o: Options{Debounce: 200 * time.Millisecond, Idle: 50 * time.Millisecond}})
	w.waitTick(t, "start", func(tk Tick) bool { return tk.Trigger == TriggerStart })
	root := svc.Engine().Layout.Root
	var edited []string
	for i := range 40 {
		edited = append(edited, fmt.Sprintf("d%03d.md", i))
		write(t, root, edited[i], fmt.Sprintf("# D%d\n\nThe heron %d, edited.\n", i, i))
	}
	// Should the edits straddle two ticks, an idle tick between them may
	// find too little to reclaim; the one after the last edit compacts.
	tk := w.waitTick(t, "compaction", func(tk Tick) bool {
		return tk.Trigger == TriggerIdle && tk.Outcome != engine.OutcomeUnchanged
	})
	if tk.Outcome != engine.OutcomeCompacted || tk.Compact.SegmentsAfter != 1 || tk.Compact.DeletedBefore != 40 {
		t.Fatalf("idle tick: %s %+v, want compacted to 1 segment, the 40 replaced chunks reclaimed", tk.Outcome, tk.Compact)
	}
	if diff := cmp.Diff(edited, sorted(found(t, svc, "edited"))); diff != "" {
		t.Errorf("answers after compaction (-want +got):\n%s", diff)
	}
	if probs, err := svc.Engine().Verify(context.Background()); err != nil || len(probs) != 0 {
		t.Errorf("verify after compaction: %v %v", probs, err)
	}
}

func sorted(s []string) []string { slices.Sort(s); return s }

func TestWorkList(t *testing.T) {
	w := work{}
	now := time.Now()
	for _, p := range []string{"a/b/c.txt", "a/b", "a-b/x", "a/bc", "z.txt", "a/b/d/e.txt"} {
		w.addPath(p, now)
	}
	if diff := cmp.Diff([]string{"a-b/x", "a/b", "a/bc", "z.txt"}, w.list()); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}
	w.addPath("", now)
	if diff := cmp.Diff([]string{""}, w.list()); diff != "" {
		t.Errorf("with the root (-want +got):\n%s", diff)
	}
}

func TestWorkDue(t *testing.T) {
	t0 := time.Unix(1000, 0)
	w := work{}
	w.addPath("a", t0)
	w.addPath("b", t0.Add(2*time.Second))
	if got, want := w.due(300*time.Millisecond, 10*time.Second), t0.Add(2300*time.Millisecond); !got.Equal(want) {
		t.Errorf("due %v, want %v (debounce after the last event)", got, want)
	}
	w.addPath("c", t0.Add(20*time.Second))
	if got, want := w.due(300*time.Millisecond, 10*time.Second), t0.Add(10*time.Second); !got.Equal(want) {
		t.Errorf("due %v, want %v (max delay after the first)", got, want)
	}
	w.addFull(TriggerReconcile)
	if !w.due(time.Second, time.Second).IsZero() || w.trigger() != TriggerReconcile {
		t.Errorf("a full walk is due at once under its own trigger")
	}
}
