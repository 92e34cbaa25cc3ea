package engine

import (
	"context"
	"errors"
	"testing"
)

// FuzzQuery sends arbitrary query text and path globs to a real index
// in every mode: an answer or a usage error, never a panic.
func FuzzQuery(f *testing.F) {
	e := newFuzzEngine(f)
	for _, s := range []string{"heron", `+a -b "c d" e:f g* [x TO y]`, "\xff\xfe", "", "ParseConfig"} {
		f.Add(s, "*.md", uint8(0))
	}
	f.Add("x", "[", uint8(1))
	f.Add("y", "**/**/[!a-]", uint8(2))
	f.Fuzz(func(t *testing.T, text, glob string, mode uint8) {
		o := QueryOptions{Text: text, PathGlob: glob, K: 3, PerFile: 1, Mode: [...]string{"", ModeBM25, ModeVector, ModeHybrid}[mode%4]}
		_, err := e.Query(context.Background(), o)
		if err != nil && !errors.Is(err, ErrUsage) {
			t.Fatalf("query %q glob %q: %v", text, glob, err)
		}
	})
}

func newFuzzEngine(f *testing.F) *Engine {
	root := f.TempDir()
	for rel, content := range map[string]string{
		"a.md":      "# Alpha\n\nThe heron fishes at dawn.\n",
		"b/code.go": "package b\n\n// ParseConfig reads the heron configuration.\nfunc ParseConfig() {}\n",
	} {
		writeSource(f, root, rel, content)
	}
	e, err := New(root, DefaultSettings())
	if err != nil {
		f.Fatal(err)
	}
	if _, err := e.Refresh(context.Background(), RefreshOptions{}); err != nil {
		f.Fatal(err)
	}
	return e
}
