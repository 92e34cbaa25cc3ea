package jsonl

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type doc struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

func write(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "corpus.jsonl")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func all(path string) ([]doc, error) {
	var out []doc
	err := Read(path, func(d doc) bool { out = append(out, d); return true })
	return out, err
}

// TestReadLongAndBlankLines: a line far beyond bufio's default 64 KB is
// read whole, blank lines (spaces, a CR, none at the end) are skipped.
func TestReadLongAndBlankLines(t *testing.T) {
	long := strings.Repeat("word ", 400_000) // 2 MB
	p := write(t, `{"_id":"a","text":"one"}`+"\n\n   \r\n"+`{"_id":"b","text":"`+long+`"}`+"\n\t\n"+`{"_id":"c"}`)
	got, err := all(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []doc{{"a", "one"}, {"b", long}, {"c", ""}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("docs (-want +got):\n%s", d)
	}
}

// TestReadBadLineNamesIt: a line that is not JSON fails the read with the
// file and the line's number (blank lines counted), and nothing after it
// is handed on.
func TestReadBadLineNamesIt(t *testing.T) {
	p := write(t, `{"_id":"a"}`+"\n\n"+`{"_id":"b",`+"\n"+`{"_id":"c"}`+"\n")
	var ids []string
	err := Read(p, func(d doc) bool { ids = append(ids, d.ID); return true })
	if err == nil || !strings.HasPrefix(err.Error(), p+":3: ") {
		t.Fatalf("error %v, want one naming %s:3", err, p)
	}
	if !cmp.Equal(ids, []string{"a"}) {
		t.Errorf("handed on %q before the bad line", ids)
	}
	if _, err := all(filepath.Join(t.TempDir(), "missing.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadTooLongLine: a line over the limit is an error naming its line,
// not a silent end of the data.
func TestReadTooLongLine(t *testing.T) {
	in := `{"_id":"a"}` + "\n" + `{"_id":"` + strings.Repeat("x", 200) + `"}` + "\n"
	err := read(strings.NewReader(in), "big.jsonl", 100, func(doc) bool { return true })
	if !errors.Is(err, bufio.ErrTooLong) || !strings.HasPrefix(err.Error(), "big.jsonl:2: ") {
		t.Fatalf("error %v, want bufio.ErrTooLong naming big.jsonl:2", err)
	}
}

// TestReadStops: fn returning false ends the read without an error.
func TestReadStops(t *testing.T) {
	p := write(t, `{"_id":"a"}`+"\n"+`{"_id":"b"}`+"\n"+`not json`+"\n")
	var ids []string
	err := Read(p, func(d doc) bool { ids = append(ids, d.ID); return len(ids) < 2 })
	if err != nil || !cmp.Equal(ids, []string{"a", "b"}) {
		t.Errorf("read %q, %v; want a, b and no error", ids, err)
	}
}
