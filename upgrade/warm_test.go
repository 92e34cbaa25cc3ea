package upgrade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed"
)

// recorder is a slow embedder (provider "test") that records every text
// it is asked to embed.
type recorder struct {
	mu    sync.Mutex
	texts []string
}

func (r *recorder) Identity() embed.Identity {
	return embed.Identity{Provider: "test", Model: "recorder", Dims: 4}
}

func (r *recorder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	r.mu.Lock()
	r.texts = append(r.texts, texts...)
	r.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t) % 7), 1, 0, 0}
	}
	return out, nil
}

func (r *recorder) sorted() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(slices.Values(r.texts))
}

// TestUpgradeEmbedsWhatRefreshWould: the upgrader embeds exactly the
// distinct chunk texts a refresh with the target embeds, each once (files
// cut on several cores, a duplicate file's chunks once), and its commit
// embeds nothing more.
func TestUpgradeEmbedsWhatRefreshWould(t *testing.T) {
	root := proseRoot(t, 12)
	code := "package p\n\n// Sum adds.\nfunc Sum(a, b int) int { return a + b }\n\n// Twice doubles.\nfunc Twice(a int) int { return 2 * a }\n"
	for _, name := range []string{"p.go", "copy.go"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(code), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	newEngine := func(root string, emb embed.Embedder) *engine.Engine {
		s := engine.DefaultSettings()
		s.Embedder, s.EmbedderChosen = emb, true
		e, err := engine.New(root, s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	direct := &recorder{}
	if _, err := newEngine(root, direct).Refresh(t.Context(), engine.RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, ".autorag")); err != nil {
		t.Fatal(err)
	}
	staged := &recorder{}
	e := newEngine(root, staged)
	if _, p, err := Refresh(t.Context(), e, engine.RefreshOptions{}); err != nil || !p.Staged() {
		t.Fatalf("first stage: staged %v, %v", p.Staged(), err)
	}
	staged.texts = slices.DeleteFunc(staged.texts, func(s string) bool { return s == "autorag" }) // the target's trial
	res, err := Run(t.Context(), e, Options{})
	if err != nil || res == nil {
		t.Fatalf("upgrade: %v, %v", res, err)
	}
	want, got := direct.sorted(), staged.sorted()
	if !slices.Equal(got, want) {
		t.Fatalf("the upgrade embedded %d texts, a refresh %d; they differ", len(got), len(want))
	}
	if len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Fatal("the upgrade embedded a text twice")
	}
	if res.ChunksEmbedded != len(got) {
		t.Fatalf("upgrade result counts %d chunks embedded, the embedder saw %d", res.ChunksEmbedded, len(got))
	}
}

// proseRoot writes files of distinct paragraphs: more than two groups of
// chunks to embed.
func proseRoot(t testing.TB, files int) string {
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
