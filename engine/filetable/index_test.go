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

	"github.com/autorag/autorag/mirror"
)

func sampleTable(n int) Table {
	t := make(Table, n)
	for i := range t {
		t[i] = Record{Path: fmt.Sprintf("d/%05d.md", i*2), TextHash: h(fmt.Sprint(i)), Chunks: 1 + i%4, Tokens: int64(10 * i)}
	}
	return t
}

// TestIndexLookup: every path of tables around the block size is found
// through the index as the table has it, and paths between, before and
// after its records are not.
func TestIndexLookup(t *testing.T) {
	for _, n := range []int{0, 1, 2, blockRecords - 1, blockRecords, blockRecords + 1, 5*blockRecords + 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			tab := sampleTable(n)
			dir := writeGen(t, t.TempDir(), 0, tab)
			l, err := Open(dir, tab.Counts())
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			for i := range n {
				r, ok, err := l.Lookup(tab[i].Path)
				if err != nil || !ok || r != tab[i] {
					t.Fatalf("lookup %s = %+v %v %v, want %+v", tab[i].Path, r, ok, err, tab[i])
				}
				for _, absent := range []string{fmt.Sprintf("d/%05d.md", i*2+1), tab[i].Path + "x"} {
					if _, ok, err := l.Lookup(absent); ok || err != nil {
						t.Fatalf("lookup %s: found %v, %v", absent, ok, err)
					}
				}
			}
			for _, absent := range []string{"", "a", "d/", "z"} {
				if _, ok, err := l.Lookup(absent); ok || err != nil {
					t.Fatalf("lookup %q: found %v, %v", absent, ok, err)
				}
			}
		})
	}
}

// TestDiffChangesMatchesDiff builds a chain of generations by random
// changes of a manifest, and at every step checks that the diff of the
// opened table at the changed paths only is the full Diff of the whole
// table, and that a generation written from the opened table loads and
// counts as one written from the table read whole.
func TestDiffChangesMatchesDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	root := t.TempDir()
	tab := sampleTable(300)
	dir := writeGen(t, root, 0, tab)
	man := manifestOf(tab)
	for g := 1; g <= 150; g++ {
		next, delta := randomManifestChange(r, man, g)
		whole, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := Diff(whole.Table, next)
		l, err := Open(dir, whole.Table.Counts())
		if err != nil {
			t.Fatalf("generation %d: %v", g-1, err)
		}
		got, err := DiffChanges(l, delta)
		if err != nil {
			t.Fatalf("generation %d: %v", g, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("generation %d: DiffChanges (-Diff +DiffChanges):\n%s", g, diff)
		}
		records := make([]Record, len(got.Index))
		for i, e := range got.Index {
			records[i] = Record{Path: e.Path, TextHash: e.TextHash, Chunks: r.IntN(4), Tokens: r.Int64N(500)}
		}
		nextDir := filepath.Join(root, fmt.Sprint(g))
		if err := os.Mkdir(nextDir, 0o700); err != nil {
			t.Fatal(err)
		}
		counts, err := l.WriteNext(dir, nextDir, records, got.Removed)
		l.Close()
		if err != nil {
			t.Fatal(err)
		}
		model := apply(slices.Clone(whole.Table), changes(records, got.Removed))
		loaded, err := Load(nextDir)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(model, loaded.Table); diff != "" {
			t.Fatalf("generation %d loads (-want +got):\n%s", g, diff)
		}
		if counts != model.Counts() {
			t.Fatalf("generation %d: counts %+v, want %+v", g, counts, model.Counts())
		}
		dir, man = nextDir, next
	}
}

func manifestOf(t Table) *mirror.Manifest {
	m := &mirror.Manifest{}
	for _, r := range t {
		m.Entries = append(m.Entries, mirror.Entry{Path: r.Path, TextHash: r.TextHash})
	}
	return m
}

// randomManifestChange changes a few entries of man: edits (some back to
// a text another path has), removals, additions (some with a removed
// path's text: renames), touches that keep the text. It returns the new
// manifest and the changes, as ChangesFrom would give them.
func randomManifestChange(r *rand.Rand, man *mirror.Manifest, g int) (*mirror.Manifest, []mirror.Change) {
	byPath := map[string]mirror.Entry{}
	for _, e := range man.Entries {
		byPath[e.Path] = e
	}
	var texts []mirror.Hash
	for range 1 + r.IntN(5) {
		p := fmt.Sprintf("d/%05d.md", r.IntN(700))
		e, had := byPath[p]
		switch k := r.IntN(5); {
		case had && k == 0:
			texts = append(texts, e.TextHash)
			delete(byPath, p)
		case had && k == 1:
			e.Size++ // same text
			byPath[p] = e
		case k == 2 && len(texts) > 0:
			byPath[p] = mirror.Entry{Path: p, TextHash: texts[0]}
		default:
			byPath[p] = mirror.Entry{Path: p, TextHash: h(fmt.Sprint(g, p, k))}
		}
	}
	next := &mirror.Manifest{}
	for _, e := range byPath {
		next.Entries = append(next.Entries, e)
	}
	slices.SortFunc(next.Entries, func(a, b mirror.Entry) int { return strings.Compare(a.Path, b.Path) })
	var changes []mirror.Change
	paths := map[string]bool{}
	for _, e := range man.Entries {
		paths[e.Path] = true
	}
	for _, e := range next.Entries {
		paths[e.Path] = true
	}
	var all []string
	for p := range paths {
		all = append(all, p)
	}
	slices.Sort(all)
	for _, p := range all {
		o, n := lookupEntry(man, p), lookupEntry(next, p)
		if o == nil && n == nil || o != nil && n != nil && *o == *n {
			continue
		}
		changes = append(changes, mirror.Change{Path: p, Old: o, New: n})
	}
	return next, changes
}

func lookupEntry(m *mirror.Manifest, p string) *mirror.Entry {
	e, ok := m.Lookup(p)
	if !ok {
		return nil
	}
	return e
}

// TestDiffChangesMismatch: a change whose old entry the table does not
// hold (a manifest that was not the table's) fails instead of giving a
// wrong change set.
func TestDiffChangesMismatch(t *testing.T) {
	tab := sampleTable(10)
	l, err := Open(writeGen(t, t.TempDir(), 0, tab), tab.Counts())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	e := mirror.Entry{Path: tab[3].Path, TextHash: h("other")}
	n := mirror.Entry{Path: tab[3].Path, TextHash: h("new")}
	for _, c := range []mirror.Change{
		{Path: e.Path, Old: &e, New: &n},                             // another old text
		{Path: "d/00001.md", Old: &mirror.Entry{Path: "d/00001.md"}}, // not in the table
		{Path: tab[4].Path, New: &mirror.Entry{Path: tab[4].Path}},   // in the table, said new
	} {
		if _, err := DiffChanges(l, []mirror.Change{c}); !errors.Is(err, ErrMismatch) {
			t.Errorf("change %+v: %v, want ErrMismatch", c, err)
		}
	}
}

// TestIndexDamage: a damaged index, or one of another base, is no index
// (the caller reads the base whole); a damaged block of the base fails the
// lookups that read it. A base written without an index (by an older
// version) gets one with the next generation.
func TestIndexDamage(t *testing.T) {
	root := t.TempDir()
	tab := sampleTable(3 * blockRecords)
	dir := writeGen(t, root, 0, tab)
	ip := filepath.Join(dir, IndexFile)
	good, err := os.ReadFile(ip)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(good); i += 3 {
		bad := slices.Clone(good)
		bad[i] ^= 0x20
		if err := os.WriteFile(ip, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir, Counts{}); !errors.Is(err, errNoIndex) {
			t.Fatalf("index byte %d flipped: Open = %v, want errNoIndex", i, err)
		}
	}
	other := writeGen(t, root, 1, sampleTable(50))
	b, _ := os.ReadFile(filepath.Join(other, IndexFile))
	if err := os.WriteFile(ip, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, Counts{}); !errors.Is(err, errNoIndex) {
		t.Fatalf("index of another base: Open = %v, want errNoIndex", err)
	}
	if err := os.WriteFile(ip, good, 0o600); err != nil {
		t.Fatal(err)
	}
	// A flipped byte inside the second block of the base.
	bp := filepath.Join(dir, File)
	base, _ := os.ReadFile(bp)
	x, _ := decodeIndex(good)
	base[x.starts[1]+5] ^= 0x01
	if err := os.WriteFile(bp, base, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Open(dir, Counts{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, _, err := l.Lookup(tab[blockRecords+3].Path); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("lookup in a damaged block: %v, want ErrCorrupt", err)
	}
	if r, ok, err := l.Lookup(tab[3].Path); err != nil || !ok || r != tab[3] {
		t.Fatalf("lookup in an intact block: %+v %v %v", r, ok, err)
	}
}

// TestIndexWrittenForOldBase: a generation whose base has no index (an
// older version wrote it) is read whole, and the next generation, which
// links that base, gets an index of it.
func TestIndexWrittenForOldBase(t *testing.T) {
	root := t.TempDir()
	tab := sampleTable(200)
	dir := writeGen(t, root, 0, tab)
	if err := os.Remove(filepath.Join(dir, IndexFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, tab.Counts()); !errors.Is(err, errNoIndex) {
		t.Fatalf("Open without an index = %v, want errNoIndex", err)
	}
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	next := filepath.Join(root, "1")
	if err := os.Mkdir(next, 0o700); err != nil {
		t.Fatal(err)
	}
	edit := Record{Path: tab[9].Path, TextHash: h("edited"), Chunks: 9}
	if _, err := l.WriteNext(dir, next, []Record{edit}, nil); err != nil {
		t.Fatal(err)
	}
	o, err := Open(next, Counts{})
	if err != nil {
		t.Fatalf("Open after the next generation: %v", err)
	}
	defer o.Close()
	if r, ok, err := o.Lookup(edit.Path); err != nil || !ok || r != edit {
		t.Fatalf("lookup %s = %+v %v %v, want the edit", edit.Path, r, ok, err)
	}
}
