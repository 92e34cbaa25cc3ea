package upgrade

import (
	"errors"
	"testing"

	"github.com/autorag/autorag/engine"
)

// TestStatusCountsFromCache: Status counts the distinct chunk texts of the
// committed mirror (Total) and, from the target's cache, those already
// embedded (Done): none after the first stage, a group after an upgrade
// stopped once the group was flushed, and Total all that a full upgrade
// then embeds along with them.
func TestStatusCountsFromCache(t *testing.T) {
	emb := &recorder{}
	s := engine.DefaultSettings()
	s.Embedder, s.EmbedderChosen = emb, true
	e, err := engine.New(proseRoot(t, 12), s)
	if err != nil {
		t.Fatal(err)
	}
	if _, p, err := Refresh(t.Context(), e, engine.RefreshOptions{}); err != nil || !p.Staged() {
		t.Fatalf("first stage: staged %v, %v", p.Staged(), err)
	}
	first := Status(t.Context(), e)
	if first == nil || first.Done != 0 || first.Total <= Group {
		t.Fatalf("status after the first stage: %+v, want none done of more than a group", first)
	}
	stop := errors.New("stop after a group")
	target, _ := pending(e)
	w, err := open(t.Context(), e.Layout, target, nil, func(done, total int) error {
		if done > 0 {
			return stop
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.run(t.Context()); !errors.Is(err, stop) {
		t.Fatalf("upgrade stopped after a group: %v", err)
	}
	w.close()
	if got := Status(t.Context(), e); got == nil || got.Done != Group || got.Total != first.Total {
		t.Fatalf("status after a group: %+v, want %d of %d", got, Group, first.Total)
	}
	emb.texts = nil
	res, err := Run(t.Context(), e, Options{})
	if err != nil || res == nil {
		t.Fatalf("upgrade: %v, %v", res, err)
	}
	if got := len(emb.sorted()); got != first.Total-Group {
		t.Fatalf("the upgrade embedded %d texts, want the %d status counted missing", got, first.Total-Group)
	}
	if got := Status(t.Context(), e); got != nil {
		t.Fatalf("status after the upgrade: %+v, want none due", got)
	}
}
