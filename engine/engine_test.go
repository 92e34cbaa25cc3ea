package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/mirror"
)

func TestPathFilter(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"*.go", "internal/cache/lru.go", true},
		{"*.go", "lru.go", true},
		{"*.go", "docs/a.md", false},
		{"docs/**", "docs/guides/x.md", true},
		{"docs/", "docs/guides/x.md", true},
		{"docs/*.md", "docs/guides/x.md", false},
		{"docs/*.md", "docs/faq.md", true},
		{"**/guides/*.md", "docs/guides/x.md", true},
		{"?aq.md", "docs/faq.md", true},
		{"[fg]aq.md", "docs/faq.md", true},
		{"[!f]aq.md", "docs/faq.md", false},
		{"a+b.md", "a+b.md", true},
		// A directory stands for its subtree, ./ is the root, braces and !.
		{"reference/7.5", "reference/7.5/a/b.md", true},
		{"reference/7.5", "reference/7.50/a.md", false},
		{"./docs/**", "docs/guides/x.md", true},
		{"{docs,src}/**", "src/a.go", true},
		{"!docs/**", "docs/faq.md", false},
		{"!docs/**", "src/a.go", true},
	}
	for _, tt := range tests {
		f, err := newPathFilter([]string{tt.glob})
		if err != nil {
			t.Fatalf("%q: %v", tt.glob, err)
		}
		if got := f.Match(tt.path); got != tt.want {
			t.Errorf("glob %q on %q = %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
	var none *backend.PathFilter
	if !none.Match("anything") {
		t.Error("no filter must match everything")
	}
}

func h(s string) mirror.Hash { return mirror.HashBytes([]byte(s)) }

func TestDiffFiles(t *testing.T) {
	prev := fileTable{
		{Path: "a.md", TextHash: h("a"), Chunks: 2},
		{Path: "b.md", TextHash: h("b"), Chunks: 1},
		{Path: "c.md", TextHash: h("c"), Chunks: 1},
		{Path: "d.md", TextHash: h("d"), Chunks: 3},
	}
	man := &mirror.Manifest{Entries: []mirror.Entry{
		{Path: "a.md", TextHash: h("a")},  // unchanged
		{Path: "b.md", TextHash: h("b2")}, // modified
		{Path: "e.md", TextHash: h("d")},  // d.md renamed
		{Path: "f.md", TextHash: h("f")},  // added
	}} // c.md deleted
	cs := diffFiles(prev, man)
	if cs.added != 1 || cs.modified != 1 || cs.deleted != 1 || cs.renamed != 1 {
		t.Errorf("added %d modified %d deleted %d renamed %d, want 1 1 1 1", cs.added, cs.modified, cs.deleted, cs.renamed)
	}
	wantDeletes := []string{record.ChunkID("b.md", 0), record.ChunkID("c.md", 0), record.ChunkID("d.md", 0), record.ChunkID("d.md", 1), record.ChunkID("d.md", 2)}
	if diff := cmp.Diff(wantDeletes, cs.deletes); diff != "" {
		t.Errorf("deletes (-want +got):\n%s", diff)
	}
	var indexed []string
	for _, e := range cs.index {
		indexed = append(indexed, e.Path)
	}
	if diff := cmp.Diff([]string{"b.md", "e.md", "f.md"}, indexed); diff != "" {
		t.Errorf("indexed (-want +got):\n%s", diff)
	}
	if len(cs.keep) != 1 || cs.keep[0].Path != "a.md" {
		t.Errorf("keep = %v, want a.md only", cs.keep)
	}
}

// TestDiffFilesRenamePairing checks that a deleted text pairs with one
// added path only (a rename plus a copy), and never with a modified path
// that takes on the deleted text.
func TestDiffFilesRenamePairing(t *testing.T) {
	prev := fileTable{
		{Path: "a.md", TextHash: h("a"), Chunks: 1},
		{Path: "b.md", TextHash: h("b"), Chunks: 1},
		{Path: "x.md", TextHash: h("x"), Chunks: 1},
	}
	man := &mirror.Manifest{Entries: []mirror.Entry{
		{Path: "a.md", TextHash: h("b")}, // modified to b.md's text; b.md deleted
		{Path: "y.md", TextHash: h("x")}, // x.md renamed
		{Path: "z.md", TextHash: h("x")}, // and copied
	}}
	cs := diffFiles(prev, man)
	if cs.added != 1 || cs.modified != 1 || cs.deleted != 1 || cs.renamed != 1 {
		t.Errorf("added %d modified %d deleted %d renamed %d, want 1 1 1 1", cs.added, cs.modified, cs.deleted, cs.renamed)
	}
}

func TestFileTableRoundTripAndCorruption(t *testing.T) {
	tab := fileTable{{Path: "a.md", TextHash: h("a"), Chunks: 2, Tokens: 40}, {Path: "dir/ü.go", TextHash: h("u"), Chunks: 1, Tokens: 7}}
	b := tab.encode()
	got, err := decodeFileTable(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tab, got); diff != "" {
		t.Fatalf("round trip (-want +got):\n%s", diff)
	}
	for i := range b {
		bad := append([]byte(nil), b...)
		bad[i] ^= 0x40
		if _, err := decodeFileTable(bad); err == nil {
			t.Fatalf("flipping byte %d went unnoticed", i)
		}
	}
	if _, err := decodeFileTable(b[:len(b)-1]); err == nil {
		t.Fatal("a truncated table went unnoticed")
	}
}

func TestChunkIDRoundTrip(t *testing.T) {
	for _, p := range []string{"a.md", "dir/x y.go", "weird\x1fname"} {
		for _, o := range []int{0, 7, 1234} {
			gp, go_ := record.SplitChunkID(record.ChunkID(p, o))
			if gp != p || go_ != o {
				t.Errorf("split(record.ChunkID(%q,%d)) = %q,%d", p, o, gp, go_)
			}
		}
	}
	if !record.LessChunkID(record.ChunkID("a", 2), record.ChunkID("a", 10)) || !record.LessChunkID(record.ChunkID("a", 10), record.ChunkID("b", 0)) {
		t.Error("chunk IDs must order by path, then numerically by ordinal")
	}
}
