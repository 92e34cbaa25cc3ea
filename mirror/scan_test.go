package mirror

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeTree creates files (path -> content) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unsupported: %v", err)
	}
}

func paths(m *Manifest) []string {
	var out []string
	for _, e := range m.Entries {
		out = append(out, e.Path)
	}
	return out
}

func scan(t *testing.T, root string, store *Store, prev *Manifest, opts ScanOptions) *ScanResult {
	t.Helper()
	res, err := Scan(context.Background(), root, store, prev, opts)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return res
}

// TestScanWalk checks what a full scan includes and reports over a tree with
// nested ignore files, negations, symlinks and bad files.
func TestScanWalk(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":            "*.log\n!keep.log\nbuild/\nsecret/\n",
		".autoragignore":        "private.txt\n!.github/\n",
		".env":                  "hidden file",
		".vscode/settings.json": `{"hidden": "folder"}`,
		".github/ci.yml":        "re-included hidden folder",
		"a/.draft.md":           "hidden file below",
		"a.txt":                 "alpha",
		"a/z.txt":               "under a",
		"b.md":                  "---\ntitle: Bee\n---\nbody",
		"x.log":                 "ignored",
		"keep.log":              "re-included",
		"build/out.txt":         "ignored dir",
		"secret/.gitignore":     "!inside.txt\n",
		"secret/inside.txt":     "excluded parent: stays out",
		"private.txt":           "ignored by .autoragignore",
		"excluded.txt":          "ignored by .git/info/exclude",
		"sub/.ignore":           "*.tmp\n",
		"sub/c.go":              "package c",
		"sub/d.tmp":             "ignored",
		"sub/deeper/.gitignore": "!*.log\n",
		"sub/deeper/e.log":      "child re-includes",
		"img.png":               "\x89PNG",
		"blob.dat":              "bin\x00ary",
		"big.txt":               strings.Repeat("x", 2048),
		".git/config":           "[core]",
		".git/info/exclude":     "excluded.txt\n",
		".autorag/mirror/m":     "internal",
	})
	writeTree(t, outside, map[string]string{"o.txt": "outside"})
	symlink(t, "a.txt", filepath.Join(root, "link-in.txt"))
	symlink(t, "sub", filepath.Join(root, "link-dir"))
	symlink(t, filepath.Join(outside, "o.txt"), filepath.Join(root, "link-out.txt"))
	symlink(t, "nowhere.txt", filepath.Join(root, "dangling.txt"))

	res := scan(t, root, OpenStore(filepath.Join(root, ".autorag", "mirror", "objects")), nil, ScanOptions{MaxFileSize: 1024})
	want := []string{
		".github/ci.yml", "a.txt", "a/z.txt", "b.md", "keep.log", "link-in.txt",
		"sub/c.go", "sub/deeper/e.log",
	}
	if diff := cmp.Diff(want, paths(res.Manifest)); diff != "" {
		t.Errorf("indexed paths (-want +got):\n%s", diff)
	}
	wantFailed := []Failure{
		{Path: "big.txt", Reason: "too large (2048 bytes)"},
		{Path: "blob.dat", Reason: "binary"},
		{Path: "dangling.txt", Reason: "dangling symlink"},
		{Path: "link-out.txt", Reason: "symlink outside root"},
	}
	if diff := cmp.Diff(wantFailed, res.Failed); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	if res.Scanned != len(want)+2 || res.Parsed != len(want) || !res.Changed {
		t.Errorf("Scanned=%d Parsed=%d Changed=%v; want %d %d true", res.Scanned, res.Parsed, res.Changed, len(want)+2, len(want))
	}
	if err := res.Manifest.Save(filepath.Join(t.TempDir(), "manifest")); err != nil {
		t.Errorf("manifest from a walk is not saveable: %v", err)
	}
	link, _ := res.Manifest.Lookup("link-in.txt")
	target, _ := res.Manifest.Lookup("a.txt")
	if link.TextHash != target.TextHash {
		t.Errorf("symlink indexed with different text than its target")
	}
}

// TestScanChanges walks through the change-detection cases one edit at a
// time.
func TestScanChanges(t *testing.T) {
	root := t.TempDir()
	store := OpenStore(filepath.Join(t.TempDir(), "objects"))
	writeTree(t, root, map[string]string{"a.txt": "alpha", "b.md": "# Bee\nbody", "c/d.go": "package d"})
	first := scan(t, root, store, nil, ScanOptions{})
	if first.Parsed != 3 || first.Hashed != 3 || !first.Changed {
		t.Fatalf("first scan: %+v", first)
	}
	m := first.Manifest
	old, _ := m.Lookup("a.txt")
	oldA := *old

	t.Run("no-op reads nothing", func(t *testing.T) {
		res := scan(t, root, store, m, ScanOptions{})
		if res.StatSkipped != res.Scanned || res.Scanned != 3 || res.Hashed != 0 || res.Parsed != 0 || res.Changed {
			t.Errorf("no-op scan: %+v", res)
		}
		if !slices.Equal(res.Manifest.Entries, m.Entries) {
			t.Errorf("no-op scan changed entries")
		}
	})

	t.Run("touch hashes but keeps the text", func(t *testing.T) {
		later := time.Unix(0, oldA.MtimeNS).Add(time.Hour)
		if err := os.Chtimes(filepath.Join(root, "a.txt"), later, later); err != nil {
			t.Fatal(err)
		}
		res := scan(t, root, store, m, ScanOptions{})
		e, _ := res.Manifest.Lookup("a.txt")
		if res.Hashed != 1 || res.Parsed != 0 || !res.Changed {
			t.Errorf("touch: Hashed=%d Parsed=%d Changed=%v; want 1 0 true", res.Hashed, res.Parsed, res.Changed)
		}
		if e.TextHash != oldA.TextHash || e.RawHash != oldA.RawHash || e.MtimeNS != later.UnixNano() {
			t.Errorf("touch: entry %+v, want same hashes and new mtime", e)
		}
		m = res.Manifest
	})

	t.Run("content change parses", func(t *testing.T) {
		writeTree(t, root, map[string]string{"a.txt": "alpha, edited"})
		res := scan(t, root, store, m, ScanOptions{})
		e, _ := res.Manifest.Lookup("a.txt")
		if res.Parsed != 1 || res.Hashed != 1 || e.TextHash == oldA.TextHash {
			t.Errorf("edit: Parsed=%d Hashed=%d, text changed=%v", res.Parsed, res.Hashed, e.TextHash != oldA.TextHash)
		}
		doc, err := store.Get(e.TextHash)
		if err != nil || doc.Text != "alpha, edited" {
			t.Errorf("stored text = %v, %v", doc, err)
		}
		m = res.Manifest
	})

	t.Run("rename reuses the text", func(t *testing.T) {
		before, _ := m.Lookup("b.md")
		if err := os.Rename(filepath.Join(root, "b.md"), filepath.Join(root, "renamed.md")); err != nil {
			t.Fatal(err)
		}
		res := scan(t, root, store, m, ScanOptions{})
		after, ok := res.Manifest.Lookup("renamed.md")
		if _, stale := res.Manifest.Lookup("b.md"); stale || !ok {
			t.Fatalf("rename: paths %v", paths(res.Manifest))
		}
		if res.Parsed != 0 || res.Hashed != 1 || after.TextHash != before.TextHash {
			t.Errorf("rename: Parsed=%d Hashed=%d reused=%v", res.Parsed, res.Hashed, after.TextHash == before.TextHash)
		}
		m = res.Manifest
	})

	t.Run("delete drops the entry", func(t *testing.T) {
		if err := os.Remove(filepath.Join(root, "c", "d.go")); err != nil {
			t.Fatal(err)
		}
		res := scan(t, root, store, m, ScanOptions{})
		if diff := cmp.Diff([]string{"a.txt", "renamed.md"}, paths(res.Manifest)); diff != "" || !res.Changed {
			t.Errorf("delete: Changed=%v paths (-want +got):\n%s", res.Changed, diff)
		}
	})
}

func TestScanTargeted(t *testing.T) {
	root := t.TempDir()
	store := OpenStore(filepath.Join(t.TempDir(), "objects"))
	writeTree(t, root, map[string]string{
		".gitignore": "ignored/\n*.bak\n",
		"a.txt":      "a", "b.txt": "b", "dir/x.txt": "x", "dir/y.txt": "y", "gone/z.txt": "z",
	})
	m := scan(t, root, store, nil, ScanOptions{}).Manifest

	// Edit a.txt and b.txt, add dir/new.txt, ignored/n.txt and c.bak, delete gone/.
	writeTree(t, root, map[string]string{
		"a.txt": "a2!", "b.txt": "b2!", "dir/new.txt": "new", "ignored/n.txt": "n", "c.bak": "bak",
	})
	if err := os.RemoveAll(filepath.Join(root, "gone")); err != nil {
		t.Fatal(err)
	}

	res := scan(t, root, store, m, ScanOptions{Paths: []string{
		"a.txt", filepath.Join(root, "dir"), "gone", "ignored/n.txt", "c.bak", "../escape.txt",
	}})
	want := []string{"a.txt", "b.txt", "dir/new.txt", "dir/x.txt", "dir/y.txt"}
	if diff := cmp.Diff(want, paths(res.Manifest)); diff != "" {
		t.Errorf("targeted paths (-want +got):\n%s", diff)
	}
	// Only the named paths were looked at: b.txt still has its old entry.
	oldB, _ := m.Lookup("b.txt")
	newB, _ := res.Manifest.Lookup("b.txt")
	if *oldB != *newB {
		t.Errorf("b.txt was rescanned by a targeted scan of other paths")
	}
	if res.Scanned != 4 || res.Parsed != 2 || res.StatSkipped != 2 {
		t.Errorf("Scanned=%d Parsed=%d StatSkipped=%d; want 4 2 2", res.Scanned, res.Parsed, res.StatSkipped)
	}
	// Every named path that could not be used is listed; gone/ is a deletion.
	wantFailed := []Failure{{Path: "../escape.txt", Reason: "path outside root"}, {Path: "c.bak", Reason: "ignored"}, {Path: "ignored/n.txt", Reason: "ignored"}}
	if diff := cmp.Diff(wantFailed, res.Failed); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}

	// Naming the root is a full scan.
	full := scan(t, root, store, res.Manifest, ScanOptions{Paths: []string{"."}})
	if _, ok := full.Manifest.Lookup("b.txt"); !ok || full.Hashed != 1 {
		t.Errorf("root-targeted scan: Hashed=%d paths=%v", full.Hashed, paths(full.Manifest))
	}
}

// TestScanRacyEntryIsHashed edits a file so that it keeps its size and
// mtime, in the same timestamp tick as the manifest's write (the manifest
// is given the file's mtime, as a coarse clock would): the scan must hash
// it and see the edit, as git does for racily clean entries.
func TestScanRacyEntryIsHashed(t *testing.T) {
	root := t.TempDir()
	store := OpenStore(filepath.Join(t.TempDir(), "objects"))
	writeTree(t, root, map[string]string{"a.txt": "alpha"})
	manPath := filepath.Join(t.TempDir(), "manifest.bin")
	if err := scan(t, root, store, nil, ScanOptions{}).Manifest.Save(manPath); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(root, "a.txt")
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	setMtime(t, manPath, fi.ModTime())
	m, err := LoadManifest(manPath)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{"a.txt": "ALPHA"})
	setMtime(t, a, fi.ModTime())
	res := scan(t, root, store, m, ScanOptions{})
	e, _ := res.Manifest.Lookup("a.txt")
	prev, _ := m.Lookup("a.txt")
	if res.Racy != 1 || res.Parsed != 1 || e.RawHash == prev.RawHash {
		t.Fatalf("same-size same-mtime edit in the manifest's tick: Racy=%d Parsed=%d changed=%v; want 1 1 true",
			res.Racy, res.Parsed, e.RawHash != prev.RawHash)
	}

	// Once the manifest is written in a later tick the fast path holds.
	if err := res.Manifest.Save(manPath); err != nil {
		t.Fatal(err)
	}
	setMtime(t, manPath, fi.ModTime().Add(3*time.Second))
	if m, err = LoadManifest(manPath); err != nil {
		t.Fatal(err)
	}
	if again := scan(t, root, store, m, ScanOptions{}); again.Hashed != 0 || again.Racy != 0 {
		t.Errorf("after the manifest's tick: Hashed=%d Racy=%d, want 0 0", again.Hashed, again.Racy)
	}
}

func setMtime(t *testing.T, path string, mt time.Time) {
	t.Helper()
	if err := os.Chtimes(path, mt, mt); err != nil {
		t.Fatal(err)
	}
}
