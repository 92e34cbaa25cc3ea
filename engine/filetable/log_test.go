package filetable

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeGen writes t whole as the table of a new generation directory.
func writeGen(t *testing.T, root string, n int, tab Table) string {
	t.Helper()
	dir := filepath.Join(root, fmt.Sprint(n))
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, tab); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLogFollowsChanges builds a chain of generations, each from the last
// by random upserts and removals through WriteNext, and checks that every
// one loads as the model table, with counts to match; that small changes
// link the base and append to the log, and that the table is written whole
// again once the log passes its limit.
func TestLogFollowsChanges(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	root := t.TempDir()
	var model Table
	for i := range 300 {
		model = append(model, Record{Path: fmt.Sprintf("d/%04d.md", i*2), TextHash: h(fmt.Sprint(i)), Chunks: 1 + i%3, Tokens: int64(i)})
	}
	dir := writeGen(t, root, 0, model)
	linked, whole := 0, 0
	for g := 1; g <= 200; g++ {
		l, err := Load(dir)
		if err != nil {
			t.Fatalf("generation %d: %v", g-1, err)
		}
		if diff := cmp.Diff(model, l.Table); diff != "" {
			t.Fatalf("generation %d loads (-want +got):\n%s", g-1, diff)
		}
		upserts, removed := randomChange(r, model, g)
		next := filepath.Join(root, fmt.Sprint(g))
		if err := os.Mkdir(next, 0o700); err != nil {
			t.Fatal(err)
		}
		counts, err := l.WriteNext(dir, next, upserts, removed)
		if err != nil {
			t.Fatal(err)
		}
		model = apply(model, changes(upserts, removed))
		if counts != model.Counts() {
			t.Fatalf("generation %d: counts %+v, want %+v", g, counts, model.Counts())
		}
		a, _ := os.Stat(filepath.Join(dir, File))
		b, _ := os.Stat(filepath.Join(next, File))
		if os.SameFile(a, b) {
			linked++
		} else {
			whole++
			if _, err := os.Stat(filepath.Join(next, LogFile)); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("generation %d: written whole but with a log (%v)", g, err)
			}
		}
		dir = next
	}
	if linked < 100 || whole < 2 {
		t.Fatalf("%d generations linked their base, %d wrote it whole: want most linked and some compacted", linked, whole)
	}
}

// randomChange picks up to three upserts (new paths or replacements) and
// up to two removals of existing paths, disjoint.
func randomChange(r *rand.Rand, model Table, g int) ([]Record, []string) {
	seen := map[string]bool{}
	var upserts []Record
	for range r.IntN(4) {
		p := fmt.Sprintf("d/%04d.md", r.IntN(700))
		if !seen[p] {
			seen[p] = true
			upserts = append(upserts, Record{Path: p, TextHash: h(fmt.Sprint(g, p)), Chunks: r.IntN(5), Tokens: r.Int64N(900)})
		}
	}
	var removed []string
	for range r.IntN(3) {
		if len(model) == 0 {
			break
		}
		p := model[r.IntN(len(model))].Path
		if !seen[p] {
			seen[p] = true
			removed = append(removed, p)
		}
	}
	slices.SortFunc(upserts, func(a, b Record) int { return strings.Compare(a.Path, b.Path) })
	return upserts, removed
}

// TestLogWritesOnlyTheChange: one changed file of a 20,000-file table
// links the base and writes a log of a few hundred bytes, where writing the
// table whole writes about a megabyte.
func TestLogWritesOnlyTheChange(t *testing.T) {
	var tab Table
	for i := range 20000 {
		tab = append(tab, Record{Path: fmt.Sprintf("docs/doc-%05d.md", i), TextHash: h(fmt.Sprint(i)), Chunks: 3, Tokens: 800})
	}
	root := t.TempDir()
	dir := writeGen(t, root, 0, tab)
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	next := filepath.Join(root, "1")
	if err := os.Mkdir(next, 0o700); err != nil {
		t.Fatal(err)
	}
	edit := Record{Path: "docs/doc-00042.md", TextHash: h("edited"), Chunks: 4, Tokens: 901}
	if _, err := l.WriteNext(dir, next, []Record{edit}, nil); err != nil {
		t.Fatal(err)
	}
	a, _ := os.Stat(filepath.Join(dir, File))
	b, _ := os.Stat(filepath.Join(next, File))
	fi, err := os.Stat(filepath.Join(next, LogFile))
	if err != nil || !os.SameFile(a, b) || fi.Size() > 256 {
		t.Fatalf("base linked %v, log %v (%v): want the base linked and a log under 256 bytes (the base is %d)", os.SameFile(a, b), fi, err, a.Size())
	}
}

// TestLogDamageIsCorruption: the table is what the generation holds, so a
// log with any byte changed, cut short, or written over another base fails
// the load instead of losing records.
func TestLogDamageIsCorruption(t *testing.T) {
	root := t.TempDir()
	tab := Table{{Path: "a.md", TextHash: h("a"), Chunks: 2, Tokens: 40}, {Path: "b.md", TextHash: h("b"), Chunks: 1, Tokens: 7}}
	dir := writeGen(t, root, 0, tab)
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	next := filepath.Join(root, "1")
	if err := os.Mkdir(next, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := l.WriteNext(dir, next, []Record{{Path: "c.md", TextHash: h("c"), Chunks: 1}}, []string{"a.md"}); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(next, LogFile)
	good, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, b []byte) {
		t.Helper()
		if err := os.WriteFile(logPath, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(next); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s: load = %v, want ErrCorrupt", what, err)
		}
	}
	for i := range good {
		bad := slices.Clone(good)
		bad[i] ^= 0x10
		check(fmt.Sprintf("byte %d flipped", i), bad)
	}
	for n := range len(good) {
		check(fmt.Sprintf("cut to %d bytes", n), good[:n])
	}
	if err := os.WriteFile(logPath, good, 0o600); err != nil {
		t.Fatal(err)
	}
	// Another base under the same log: unlink the shared inode first.
	if err := os.Remove(filepath.Join(next, File)); err != nil {
		t.Fatal(err)
	}
	if err := Write(next, Table{{Path: "a.md", TextHash: h("other"), Chunks: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(next); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("log over another base: load = %v, want ErrCorrupt", err)
	}
}
