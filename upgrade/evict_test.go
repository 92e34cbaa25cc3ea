package upgrade

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed"
)

// slowEmbedder stands for a transformer or a provider (Slow: its provider
// is not "local"); every call after the first limit fails, as a process
// killed mid-upgrade stops.
type slowEmbedder struct {
	limit int32
	calls atomic.Int32
}

func (s *slowEmbedder) Identity() embed.Identity {
	return embed.Identity{Provider: "test", Model: "slow", Dims: 4}
}

func (s *slowEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if s.calls.Add(1) > s.limit {
		return nil, errors.New("killed")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t) % 7), 1, 0, 0}
	}
	return out, nil
}

// proseRoot writes files of distinct paragraphs: more than two groups of
// chunks to embed.
func proseRoot(t *testing.T, files int) string {
	t.Helper()
	root := t.TempDir()
	for f := range files {
		var b strings.Builder
		for p := range 6 {
			fmt.Fprintf(&b, "# Part %d of note %d\n\n", p, f)
			for w := range 60 {
				fmt.Fprintf(&b, "word%d_%d_%d ", f, p, w)
			}
			b.WriteString("\n\n")
		}
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("n%02d.md", f)), []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestEvictionKeepsUpgradeTarget: an upgrade stopped after its first group
// (a crash, Ctrl-C) keeps the vectors it finished, even when a first-stage
// refresh (built-in embedder) meanwhile finds the embedding cache over its
// cap: eviction keeps the target's vectors as it keeps the committed
// generation's, and the resumed upgrade embeds only the rest.
func TestEvictionKeepsUpgradeTarget(t *testing.T) {
	root := proseRoot(t, 20)
	emb := &slowEmbedder{limit: 2} // the readiness probe, then one group
	s := engine.DefaultSettings()
	s.Embedder, s.EmbedderChosen, s.EmbedCacheCap = emb, true, 1
	e, err := engine.New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, p, err := Refresh(ctx, e, engine.RefreshOptions{}); err != nil || !p.Staged() {
		t.Fatalf("first stage: staged %v, %v", p.Staged(), err)
	}
	if _, err := Run(ctx, e, Options{}); err == nil {
		t.Fatal("the upgrade finished; the embedder should have stopped it after one group")
	}
	before := Status(ctx, e)
	if before == nil || before.Done < Group || before.Total <= before.Done {
		t.Fatalf("after the stopped upgrade: %+v, want the first group of %d kept and more to do", before, Group)
	}
	if err := os.WriteFile(filepath.Join(root, "edit.md"), []byte("# Edit\nA new note while the upgrade waits.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, p, err := Refresh(ctx, e, engine.RefreshOptions{}); err != nil || !p.Staged() {
		t.Fatalf("first-stage refresh of an edit: staged %v, %v", p.Staged(), err)
	}
	after := Status(ctx, e)
	if after == nil || after.Done < before.Done {
		t.Fatalf("after a first-stage refresh over the cache's cap: %+v, had %d finished vectors", after, before.Done)
	}
	emb.limit = 1 << 20
	res, err := Run(ctx, e, Options{})
	if err != nil || res == nil {
		t.Fatalf("resumed upgrade: %v, %v", res, err)
	}
	if res.ChunksEmbedded > after.Total-before.Done {
		t.Fatalf("resumed upgrade embedded %d chunks, want at most the %d the first group left", res.ChunksEmbedded, after.Total-before.Done)
	}
}
