package split

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/autorag/autorag/mirror"
)

// Files hands the files out in the entries' order, whatever order the
// workers finish them in, with a read error on its own file only.
func TestFilesInOrder(t *testing.T) {
	var entries []mirror.Entry
	for i := range 50 {
		entries = append(entries, mirror.Entry{Path: fmt.Sprintf("f%02d.md", i)})
	}
	bad := errors.New("gone")
	read := func(en mirror.Entry) (*mirror.Doc, error) {
		if en.Path == "f13.md" {
			return nil, bad
		}
		return &mirror.Doc{Parser: "markdown@3", Lang: "markdown", Text: "# " + en.Path + "\n"}, nil
	}
	next, stop := Files(t.Context(), entries, read, Options{})
	defer stop()
	for i, en := range entries {
		f := next()
		if en.Path == "f13.md" {
			if !errors.Is(f.Err, bad) {
				t.Fatalf("file %d: err %v, want the read error", i, f.Err)
			}
			continue
		}
		if f.Err != nil || len(f.Chunks) != 1 || f.Chunks[0].Path != en.Path || f.Chunks[0].Section != en.Path {
			t.Fatalf("file %d: %+v", i, f)
		}
	}
}

// Files stops when its context ends: next answers with the context's
// error and stop returns (no worker left waiting).
func TestFilesCancelled(t *testing.T) {
	entries := make([]mirror.Entry, 100)
	ctx, cancel := context.WithCancel(t.Context())
	read := func(mirror.Entry) (*mirror.Doc, error) {
		return &mirror.Doc{Parser: "text@3", Lang: "text", Text: "x\n"}, nil
	}
	next, stop := Files(ctx, entries, read, Options{})
	if f := next(); f.Err != nil {
		t.Fatal(f.Err)
	}
	cancel()
	for range entries { // taken or not, every later call ends
		if f := next(); f.Err != nil {
			if !errors.Is(f.Err, context.Canceled) {
				t.Fatalf("err %v", f.Err)
			}
			break
		}
	}
	stop()
}
