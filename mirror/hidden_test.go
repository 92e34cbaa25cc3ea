package mirror

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestHiddenEntries checks that every way a path enters (the walk, a
// targeted scan, the watcher's Matcher) skips hidden files and folders
// unless a "!" rule names them, and that a named hidden path says why it
// was left out.
func TestHiddenEntries(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".autoragignore":          "!.github/\n!.keep.md\n",
		".agents/skills/x.md":     "an agent's notes",
		".env":                    "SECRET=1",
		".github/workflows/a.yml": "on: push",
		".keep.md":                "named by a rule",
		"docs/.draft.md":          "hidden below",
		"docs/page.md":            "shown",
		"icon.svg":                `<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h24v24H0z"/></svg>`,
	})
	store := OpenStore(filepath.Join(t.TempDir(), "objects"))
	want := []string{".github/workflows/a.yml", ".keep.md", "docs/page.md"}
	res := scan(t, root, store, nil, ScanOptions{})
	if got := paths(res.Manifest); !slices.Equal(got, want) {
		t.Errorf("walk indexed %v, want %v", got, want)
	}
	res = scan(t, root, store, nil, ScanOptions{Paths: []string{".env", "docs/.draft.md", ".agents/skills/x.md", ".keep.md"}})
	if got := paths(res.Manifest); !slices.Equal(got, []string{".keep.md"}) {
		t.Errorf("targeted scan indexed %v, want [.keep.md]", got)
	}
	for _, f := range res.Failed {
		if f.Reason != reasonHidden {
			t.Errorf("targeted %s: reason %q, want %q", f.Path, f.Reason, reasonHidden)
		}
	}
	if len(res.Failed) != 3 {
		t.Errorf("targeted scan failed %v, want the three hidden paths", res.Failed)
	}
	m, err := NewMatcher(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for rel, skip := range map[string]bool{".agents": true, ".agents/skills": true, ".github": false, "docs": false} {
		if got := m.Skipped(rel, true); got != skip {
			t.Errorf("Matcher.Skipped(%q) = %v, want %v", rel, got, skip)
		}
	}
}
