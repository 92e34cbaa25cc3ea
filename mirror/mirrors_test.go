package mirror

import (
	"context"
	"testing"
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
