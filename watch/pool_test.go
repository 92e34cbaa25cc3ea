package watch

import (
	"os"
	"testing"
	"time"

	"github.com/autorag/autorag/engine"
)

// TestPoolGatesTicks: watchers sharing a pool of one slot tick one at a
// time: while the slot is held nobody ticks; released, both roots get
// their start tick, and neither is lost.
func TestPoolGatesTicks(t *testing.T) {
	pool := NewPool(1)
	if err := pool.acquire(t.Context()); err != nil {
		t.Fatal(err)
	}
	a := newService(t, map[string]string{"a.md": "# A\n\nThe heron.\n"})
	b := newService(t, map[string]string{"b.md": "# B\n\nThe robin.\n"})
	wa := start(t, a, &runner{o: Options{Debounce: 10 * time.Millisecond, Pool: pool}})
	wb := start(t, b, &runner{o: Options{Debounce: 10 * time.Millisecond, Pool: pool}})
	select {
	case tk := <-wa.ticks:
		t.Fatalf("a ticked while the only slot was held: %+v", tk)
	case tk := <-wb.ticks:
		t.Fatalf("b ticked while the only slot was held: %+v", tk)
	case <-time.After(200 * time.Millisecond):
	}
	pool.release()
	for _, w := range []*running{wa, wb} {
		w.waitTick(t, "start", func(tk Tick) bool { return tk.Trigger == TriggerStart && tk.Outcome == engine.OutcomeRebuilt })
	}
	if len(pool.slots) != 0 {
		t.Errorf("%d slots still held after both ticks", len(pool.slots))
	}
}

// TestRootGone: a watched root that is deleted fails its ticks and is not
// created again by them. The failed tick awaited is a full one (a
// reconcile): an event tick names paths and fails resolving them whatever
// the guard does, a full refresh would create the root again without it.
func TestRootGone(t *testing.T) {
	svc := newService(t, map[string]string{"a.md": "# A\n\nThe heron.\n"})
	root := svc.Engine().Layout.Root
	w := start(t, svc, &runner{o: Options{Debounce: 10 * time.Millisecond, Reconcile: 250 * time.Millisecond}})
	w.waitTick(t, "start", func(tk Tick) bool { return tk.Trigger == TriggerStart })
	write(t, root, "sub/b.md", "# B\n\nA robin.\n")
	w.waitTick(t, "the new file", func(tk Tick) bool { return tk.Refresh != nil && tk.Refresh.Added == 1 })
	// A tick may write under .autorag while it is removed: retry.
	for err := os.RemoveAll(root); err != nil; err = os.RemoveAll(root) {
		time.Sleep(time.Millisecond)
	}
	// A tick in flight during the removal may have begun before it: the
	// checks start with the second full tick after it.
	w.waitTick(t, "a full tick", func(tk Tick) bool { return tk.Trigger == TriggerReconcile })
	for i := 0; i < 2; i++ {
		tk := w.waitTick(t, "a full tick", func(tk Tick) bool { return tk.Trigger == TriggerReconcile })
		if tk.Outcome != OutcomeError || tk.Err == nil {
			t.Errorf("a full tick on the deleted root: outcome %q, err %v; want a failure", tk.Outcome, tk.Err)
		}
		if _, err := os.Stat(root); !os.IsNotExist(err) {
			t.Fatalf("the deleted root exists again after a full tick: %v", err)
		}
	}
}
