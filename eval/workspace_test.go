//go:build unix

package eval

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func smallSet() *Dataset {
	return &Dataset{Name: "mini", Docs: []Doc{{ID: "d1", Text: "one"}, {ID: "d2", Title: "Two", Text: "two"}}}
}

// victim is a directory of someone's files that a planted link points at.
func victim(t *testing.T) (dir string, check func()) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{"thesis.tex": "years of work", "d1.md": "not a document of the set"}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, func() {
		t.Helper()
		for n, want := range files {
			if b, err := os.ReadFile(filepath.Join(dir, n)); err != nil || string(b) != want {
				t.Errorf("victim's %s: %q, %v (want it untouched)", n, b, err)
			}
		}
	}
}

// TestMaterializeFollowsNoLink plants links where the workspace goes and
// inside it: nothing outside is written or removed.
func TestMaterializeFollowsNoLink(t *testing.T) {
	v, intact := victim(t)
	work := t.TempDir()
	corpus := filepath.Join(work, "corpus")
	if err := os.Symlink(v, corpus); err != nil {
		t.Fatal(err)
	}
	if _, err := Materialize(smallSet(), corpus, ".md"); err == nil {
		t.Error("Materialize into a symlinked corpus directory succeeded")
	}
	intact()

	// A link planted where a document goes is replaced, not followed.
	os.Remove(corpus)
	if _, err := Materialize(smallSet(), corpus, ".md"); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(corpus, "d1.md")
	os.Remove(p)
	if err := os.Symlink(filepath.Join(v, "d1.md"), p); err != nil {
		t.Fatal(err)
	}
	if _, err := Materialize(smallSet(), corpus, ".md"); err != nil {
		t.Fatal(err)
	}
	intact()
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("d1.md after the second run: %v %v, want a regular file", fi, err)
	}
}

// TestMaterializeRemovesOnlyWhatItWrote checks that a file the workspace
// did not write stops the run untouched, and that a document leaving the
// set removes the file it had written.
func TestMaterializeRemovesOnlyWhatItWrote(t *testing.T) {
	corpus := filepath.Join(t.TempDir(), "corpus")
	if _, err := Materialize(smallSet(), corpus, ".md"); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(corpus, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Materialize(smallSet(), corpus, ".md"); err == nil {
		t.Error("a file eval did not write was accepted")
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "mine" {
		t.Errorf("foreign file: %q %v", b, err)
	}
	os.Remove(mine)
	ds := smallSet()
	ds.Docs = ds.Docs[:1]
	if _, err := Materialize(ds, corpus, ".md"); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(corpus)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"d1.md"}) {
		t.Errorf("corpus holds %v, want [d1.md]", names)
	}
}

// TestPrivateDir refuses a shared or planted workspace directory.
func TestPrivateDir(t *testing.T) {
	base := t.TempDir()
	v, intact := victim(t)
	link := filepath.Join(base, "link")
	os.Symlink(v, link)
	open := filepath.Join(base, "open")
	os.Mkdir(open, 0o777)
	os.Chmod(open, 0o777)
	for _, d := range []string{link, open} {
		if _, err := PrivateDir(d); err == nil {
			t.Errorf("PrivateDir(%s) accepted", d)
		}
	}
	intact()
	d, err := PrivateDir(filepath.Join(base, "new"))
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(d); fi.Mode().Perm() != 0o700 {
		t.Errorf("new workspace mode %v, want 0700", fi.Mode().Perm())
	}
}
