//go:build unix

package mirror

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileRoot builds a root where every way a path can enter meets a trap:
// a symlinked parent leading outside, a symlinked parent leading into an
// ignored directory, a symlinked leaf into the ignored directory, case
// variants of .git and .autorag, and FIFOs (one as an ignore file, one
// behind a symlink named like a source).
func hostileRoot(t *testing.T) (root string) {
	t.Helper()
	root, outside := t.TempDir(), t.TempDir()
	writeTree(t, outside, map[string]string{"secret.md": "outside zebrafish", "sub/a.md": "outside quokka"})
	writeTree(t, root, map[string]string{
		"a.md":             "# A\nplain text",
		".gitignore":       "secret/\n",
		"secret/key.md":    "ignored yakwords",
		".GIT/config":      "[remote] token=abc",
		".Autorag/note.md": "internal kiwiword",
		"fifodir/x.md":     "next to a fifo ignore file",
	})
	symlink(t, outside, filepath.Join(root, "link"))
	symlink(t, "secret", filepath.Join(root, "sdir"))
	symlink(t, "secret/key.md", filepath.Join(root, "pub.md"))
	for _, p := range []string{"fifodir/.gitignore", "docs/fifo"} {
		mkfifo(t, filepath.Join(root, p))
	}
	symlink(t, "fifo", filepath.Join(root, "docs", "pipe.md"))
	return root
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

// within runs f and fails the test if f has not returned after a minute:
// a FIFO opened for reading blocks forever, and the test must report that
// rather than hang the whole binary.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s hangs", what)
	}
}

var hostilePaths = []string{"link/secret.md", "link/sub", "link", "sdir/key.md", "sdir", "pub.md",
	".GIT/config", ".Autorag/note.md", ".GIT", "docs/pipe.md", "docs/fifo", "fifodir/.gitignore"}

// TestPathEntriesAgree checks every way a path enters (the walk, a
// targeted scan, ReadSource, the watcher's Matcher) against the hostile
// root: only a.md and fifodir/x.md are sources, nothing hangs.
func TestPathEntriesAgree(t *testing.T) {
	root := hostileRoot(t)
	store := OpenStore(filepath.Join(t.TempDir(), "objects"))
	want := []string{"a.md", "fifodir/x.md"}
	within(t, "a full scan", func() {
		res := scan(t, root, store, nil, ScanOptions{})
		if got := paths(res.Manifest); !slices.Equal(got, want) {
			t.Errorf("walk indexed %v, want %v", got, want)
		}
	})
	within(t, "a targeted scan", func() {
		res := scan(t, root, store, nil, ScanOptions{Paths: append([]string{"a.md", "fifodir"}, hostilePaths...)})
		if got := paths(res.Manifest); !slices.Equal(got, []string{"a.md", "fifodir/x.md"}) {
			t.Errorf("targeted scan indexed %v (failed %v)", got, res.Failed)
		}
	})
	within(t, "Changed", func() {
		if _, err := Changed(context.Background(), root, &Manifest{}, 0, nil); err != nil {
			t.Error(err)
		}
	})
	for _, p := range hostilePaths {
		within(t, "ReadSource "+p, func() {
			doc, err := ReadSource(context.Background(), root, p, 0)
			if err == nil {
				t.Errorf("ReadSource(%s) read %q", p, doc.Text)
			} else if !errors.Is(err, ErrNotSource) {
				t.Errorf("ReadSource(%s): %v, want ErrNotSource", p, err)
			}
		})
		within(t, "ReadRaw "+p, func() {
			if raw, err := ReadRaw(context.Background(), root, p, 0); !errors.Is(err, ErrNotSource) {
				t.Errorf("ReadRaw(%s) = %q, %v; want ErrNotSource", p, raw, err)
			}
		})
	}
	m, err := NewMatcher(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, p := range []string{".GIT/config", ".Autorag", "secret/key.md", "sdir/key.md"} {
		within(t, "Matcher "+p, func() {
			if !m.Skipped(p, false) && !strings.HasPrefix(p, "sdir") {
				t.Errorf("Matcher does not skip %s", p)
			}
		})
	}
}

// TestTreeRefusesSymlinkedComponents checks the resolver itself: no
// symlink in any component, the last one included, and no FIFO opened.
func TestTreeRefusesSymlinkedComponents(t *testing.T) { checkTree(t) }

func checkTree(t *testing.T) {
	root := hostileRoot(t)
	tr, err := openTree(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	for _, p := range []string{"link/secret.md", "sdir/key.md", "pub.md", "docs/pipe.md"} {
		if f, err := tr.openFile(p); !errors.Is(err, errSymlinkPath) {
			t.Errorf("openFile(%s) = %v, %v; want errSymlinkPath", p, f, err)
		}
	}
	for _, p := range []string{"docs/fifo", "fifodir/.gitignore"} {
		within(t, "openFile "+p, func() {
			if _, err := tr.openFile(p); !errors.Is(err, errNotRegular) {
				t.Errorf("openFile(%s): %v, want errNotRegular", p, err)
			}
		})
	}
	if _, err := tr.openDir("link"); !errors.Is(err, errSymlinkPath) {
		t.Errorf("openDir(link): %v", err)
	}
	if f, err := tr.openFile("secret/key.md"); err != nil {
		t.Errorf("openFile of a plain file: %v", err)
	} else {
		f.Close()
	}
}
