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

// TestSyntaxVersionReparsesItsLanguageOnly: a code file's parser name
// carries the version of its definition finder (go/parser's for Go, the
// grammar and rules of tree-sitter's for Python), so a manifest written
// with another version re-parses that language's files, to a new text
// hash (the index re-chunks them), and no other file.
func TestSyntaxVersionReparsesItsLanguageOnly(t *testing.T) {
	for _, c := range []struct{ path, src, parser, old string }{
		{"a.go", "package a\n", "code@3+go@" + codedef.GoVersion, "code@3+go@0"},
		{"b.py", "x = 1\n", "code@3+python@" + codedef.Version("python"), "code@3+python@tree-sitter-python@0.23.0+r1m1"},
	} {
		t.Run(c.path, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{"a.go": "package a\n", "b.py": "x = 1\n", "c.rs": "fn c() {}\n", "d.md": "# D\n"})
			store := OpenStore(t.TempDir())
			first := scan(t, root, store, nil, ScanOptions{})
			if err := store.Sync(); err != nil {
				t.Fatal(err)
			}
			prev := &Manifest{Entries: slices.Clone(first.Manifest.Entries)}
			for i := range prev.Entries {
				if prev.Entries[i].Path != c.path {
					continue
				}
				if prev.Entries[i].Parser != c.parser {
					t.Fatalf("%s parsed by %q, want %q", c.path, prev.Entries[i].Parser, c.parser)
				}
				old, err := store.Put(&Doc{Parser: c.old, Lang: codedef.LangOf(c.path), Text: c.src})
				if err != nil {
					t.Fatal(err)
				}
				prev.Entries[i].Parser, prev.Entries[i].TextHash = c.old, old
			}
			again := scan(t, root, store, prev, ScanOptions{})
			if again.Parsed != 1 {
				t.Fatalf("parsed %d files, want %s alone", again.Parsed, c.path)
			}
			for i, e := range again.Manifest.Entries {
				if changed := e.TextHash != prev.Entries[i].TextHash; changed != (e.Path == c.path) {
					t.Errorf("%s: text hash changed %v", e.Path, changed)
				}
			}
		})
	}
}
