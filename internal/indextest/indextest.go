package indextest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/static"
)

// WriteTree writes files (slash-separated paths relative to root, to their
// contents) under root, creating directories as needed.
func WriteTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Index opens an engine over root with the default settings and the
// built-in static embedder, and refreshes it once.
func Index(t testing.TB, root string) *engine.Engine {
	t.Helper()
	s := engine.DefaultSettings()
	s.Embedder = static.New()
	e, err := engine.New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Refresh(t.Context(), engine.RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	return e
}

// Files writes files under root and indexes them (WriteTree, then Index).
func Files(t testing.TB, root string, files map[string]string) *engine.Engine {
	t.Helper()
	WriteTree(t, root, files)
	return Index(t, root)
}
