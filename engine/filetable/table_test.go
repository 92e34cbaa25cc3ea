package filetable

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/mirror"
)

func h(s string) mirror.Hash { return mirror.HashBytes([]byte(s)) }

func TestDiffFiles(t *testing.T) {
	prev := Table{
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
	cs := Diff(prev, man)
	if cs.Added != 1 || cs.Modified != 1 || cs.Deleted != 1 || cs.Renamed != 1 {
		t.Errorf("added %d modified %d deleted %d renamed %d, want 1 1 1 1", cs.Added, cs.Modified, cs.Deleted, cs.Renamed)
	}
	wantDeletes := []string{record.ChunkID("b.md", 0), record.ChunkID("c.md", 0), record.ChunkID("d.md", 0), record.ChunkID("d.md", 1), record.ChunkID("d.md", 2)}
	if diff := cmp.Diff(wantDeletes, cs.Deletes); diff != "" {
		t.Errorf("deletes (-want +got):\n%s", diff)
	}
	var indexed []string
	for _, e := range cs.Index {
		indexed = append(indexed, e.Path)
	}
	if diff := cmp.Diff([]string{"b.md", "e.md", "f.md"}, indexed); diff != "" {
		t.Errorf("indexed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"c.md", "d.md"}, cs.Removed); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
}

// TestDiffFilesRenamePairing checks that a deleted text pairs with one
// added path only (a rename plus a copy), and never with a modified path
// that takes on the deleted text.
func TestDiffFilesRenamePairing(t *testing.T) {
	prev := Table{
		{Path: "a.md", TextHash: h("a"), Chunks: 1},
		{Path: "b.md", TextHash: h("b"), Chunks: 1},
		{Path: "x.md", TextHash: h("x"), Chunks: 1},
	}
	man := &mirror.Manifest{Entries: []mirror.Entry{
		{Path: "a.md", TextHash: h("b")}, // modified to b.md's text; b.md deleted
		{Path: "y.md", TextHash: h("x")}, // x.md renamed
		{Path: "z.md", TextHash: h("x")}, // and copied
	}}
	cs := Diff(prev, man)
	if cs.Added != 1 || cs.Modified != 1 || cs.Deleted != 1 || cs.Renamed != 1 {
		t.Errorf("added %d modified %d deleted %d renamed %d, want 1 1 1 1", cs.Added, cs.Modified, cs.Deleted, cs.Renamed)
	}
}

func TestFileTableRoundTripAndCorruption(t *testing.T) {
	tab := Table{{Path: "a.md", TextHash: h("a"), Chunks: 2, Tokens: 40}, {Path: "dir/ü.go", TextHash: h("u"), Chunks: 1, Tokens: 7}}
	b := tab.Encode()
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tab, got); diff != "" {
		t.Fatalf("round trip (-want +got):\n%s", diff)
	}
	for i := range b {
		bad := append([]byte(nil), b...)
		bad[i] ^= 0x40
		if _, err := Decode(bad); err == nil {
			t.Fatalf("flipping byte %d went unnoticed", i)
		}
	}
	if _, err := Decode(b[:len(b)-1]); err == nil {
		t.Fatal("a truncated table went unnoticed")
	}
}

// FuzzFileTable decodes arbitrary file tables: never a panic, and what
// decodes re-encodes to the same table.
func FuzzFileTable(f *testing.F) {
	f.Add(Table{{Path: "a.md", TextHash: mirror.HashBytes([]byte("a")), Chunks: 2, Tokens: 40}, {Path: "b/c.go", Chunks: 1, Tokens: 3}}.Encode())
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tab, err := Decode(b)
		if err != nil {
			return
		}
		again, err := Decode(tab.Encode())
		if err != nil || !reflect.DeepEqual(tab, again) && len(tab) > 0 {
			t.Fatalf("round trip: %v", err)
		}
	})
}
