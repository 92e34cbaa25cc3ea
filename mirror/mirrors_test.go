package mirror

import (
	"context"
	"slices"
	"testing"

	"github.com/autorag/autorag/engine/codedef"
)

// ReadSourceFrom serves the mirror of a file whose bytes are those the
// manifest recorded, and parses a file that changed since.
func TestReadSourceFromServesTheMirror(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# Parsed\n"})
	store := OpenStore(t.TempDir())
	h, err := store.Put(&Doc{Parser: markdownParser, Lang: "markdown", Text: "from the mirror\n"})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Sync(); err != nil {
		t.Fatal(err)
	}
	m := &Mirrors{Manifest: &Manifest{Entries: []Entry{{Path: "a.md", RawHash: HashBytes([]byte("# Parsed\n")), TextHash: h, Parser: markdownParser}}}, Store: store}
	read := func() string {
		t.Helper()
		d, err := ReadSourceFrom(context.Background(), root, "a.md", 0, m)
		if err != nil {
			t.Fatal(err)
		}
		return d.Text
	}
	if got := read(); got != "from the mirror\n" {
		t.Errorf("unchanged file: text %q, want the mirror's", got)
	}
	writeTree(t, root, map[string]string{"a.md": "# Edited\n"})
	if got := read(); got != "# Edited\n" {
		t.Errorf("edited file: text %q, want it parsed again", got)
	}
	m.Manifest.Entries[0].RawHash = HashBytes([]byte("# Edited\n"))
	m.Manifest.Entries[0].Parser = "markdown@0"
	if got := read(); got != "# Edited\n" {
		t.Errorf("mirrored by another parser version: text %q, want it parsed again", got)
	}
}

// A scan times its walk and its parsing apart.
func TestScanTimesWalkAndParse(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# A\n", "b/c.md": "# C\n"})
	res := scan(t, root, OpenStore(t.TempDir()), nil, ScanOptions{})
	if res.WalkTime <= 0 || res.ParseTime <= 0 {
		t.Errorf("walk %v, parse %v: want both timed", res.WalkTime, res.ParseTime)
	}
}

// TestSyntaxVersionReparsesItsLanguageOnly: a Go file's parser name
// carries the version of Go's definition finder, so a manifest written
// with another version re-parses the Go files, to a new text hash (the
// index re-chunks them), and no other file.
func TestSyntaxVersionReparsesItsLanguageOnly(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "package a\n", "b.py": "x = 1\n"})
	store := OpenStore(t.TempDir())
	first := scan(t, root, store, nil, ScanOptions{})
	if err := store.Sync(); err != nil {
		t.Fatal(err)
	}
	prev := &Manifest{Entries: slices.Clone(first.Manifest.Entries)}
	for i := range prev.Entries {
		if prev.Entries[i].Path == "a.go" {
			if prev.Entries[i].Parser != "code@3+go@"+codedef.GoVersion {
				t.Fatalf("a.go parsed by %q", prev.Entries[i].Parser)
			}
			old, err := store.Put(&Doc{Parser: "code@3+go@0", Lang: "go", Text: "package a\n"})
			if err != nil {
				t.Fatal(err)
			}
			prev.Entries[i].Parser, prev.Entries[i].TextHash = "code@3+go@0", old
		}
	}
	again := scan(t, root, store, prev, ScanOptions{})
	if again.Parsed != 1 {
		t.Fatalf("parsed %d files, want a.go alone", again.Parsed)
	}
	for i, e := range again.Manifest.Entries {
		if changed := e.TextHash != prev.Entries[i].TextHash; changed != (e.Path == "a.go") {
			t.Errorf("%s: text hash changed %v", e.Path, changed)
		}
	}
}
