package watch

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/autorag/autorag/engine"
)

// TestOverflowRewatches loses every event from the creation of a
// directory tree and an ignore-file edit up to a sentinel file, as a queue
// overflow does, then reports the overflow: the watch set is rebuilt, so
// later edits inside the new directory and inside the directory the edit
// unignored arrive as events, with no reconcile to rescue them.
func TestOverflowRewatches(t *testing.T) {
	svc := newService(t, map[string]string{"a.md": "# A\n\nThe heron.\n", ".gitignore": "skip/\n", "skip/y.md": "# Y\n\nhidden\n"})
	root := svc.Engine().Layout.Root
	r := &runner{o: Options{Debounce: 20 * time.Millisecond, Reconcile: -1}}
	losing := true
	r.lose = func(ev fsnotify.Event) bool {
		if !losing {
			return false
		}
		if filepath.Base(ev.Name) == "sentinel.md" {
			losing = false
			go func() { r.tree.fs.Errors <- fsnotify.ErrEventOverflow }()
		}
		return true
	}
	w := start(t, svc, r)
	<-w.ready
	w.waitTick(t, "start", func(tk Tick) bool { return tk.Trigger == TriggerStart })
	write(t, root, "new/sub/x.md", "# X\n\nthe otter\n")
	write(t, root, ".gitignore", "")
	write(t, root, "sentinel.md", "# S\n\nsentinel\n")
	w.waitTick(t, "the walk after the overflow", func(tk Tick) bool { return tk.Trigger == TriggerReconcile && tk.Err == nil })
	if got := found(t, svc, "otter"); !slices.Equal(got, []string{"new/sub/x.md"}) {
		t.Fatalf("after the walk, otter in %v", got)
	}
	write(t, root, "new/sub/x.md", "# X\n\nthe badger\n")
	write(t, root, "skip/y.md", "# Y\n\nthe lynx\n")
	w.waitTick(t, "events from the new and the unignored directory", func(tk Tick) bool {
		return tk.Err == nil && tk.Outcome != engine.OutcomeUnchanged &&
			slices.Equal(found(t, svc, "badger"), []string{"new/sub/x.md"}) && slices.Equal(found(t, svc, "lynx"), []string{"skip/y.md"})
	})
}
