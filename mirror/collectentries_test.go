package mirror

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// storeObjects lists the object copies of the packs in dir, sorted (a copy
// in two packs is listed twice).
func storeObjects(t *testing.T, dir string) []string {
	t.Helper()
	s := OpenStore(dir)
	defer s.Close()
	s.rlockPacks()
	defer s.mu.RUnlock()
	var out []string
	for _, p := range s.packs {
		es, _ := p.index()
		for _, e := range es {
			out = append(out, e.hash.String())
		}
	}
	slices.Sort(out)
	return out
}

// copyDir copies the files of dir into a new temporary directory.
func copyDir(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func entriesOf(hs []Hash) []Entry {
	es := make([]Entry, len(hs))
	for i, h := range hs {
		es[i] = Entry{Path: fmt.Sprintf("f%05d", i), TextHash: h}
	}
	return es
}

func keepOf(entries []Entry) map[Hash]bool {
	keep := map[Hash]bool{}
	for _, e := range entries {
		keep[e.TextHash] = true
	}
	return keep
}

// TestCollectEntriesMergesLikeCollect: a large base pack and more than
// maxPacks one-file packs, some of them dead (edited again since): the
// merge of the small packs, found without a set of every entry's text,
// leaves the same objects as Collect's full pass, the base pack as it is.
func TestCollectEntriesMergesLikeCollect(t *testing.T) {
	dir := t.TempDir()
	var base []*Doc
	for i := range 60 {
		base = append(base, testDoc(i, 1500))
	}
	live, baseName := makePack(t, dir, base...)
	for i := range maxPacks + 3 {
		h, _ := makePack(t, dir, testDoc(1000+i, 300))
		if i%3 != 0 { // every third edit was edited again: its text is dead
			live = append(live, h[0])
		}
	}
	full := copyDir(t, dir)
	entries := entriesOf(live)
	s := OpenStore(dir)
	st, err := s.CollectEntries(entries)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	fs := OpenStore(full)
	fst, err := fs.Collect(keepOf(entries))
	fs.Close()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(storeObjects(t, full), storeObjects(t, dir)); diff != "" {
		t.Fatalf("objects after CollectEntries (-Collect +CollectEntries):\n%s", diff)
	}
	// The full pass removes the dead one-file packs first and then has no
	// more than maxPacks left to merge; the layout differs, not the objects.
	if !st.Rewritten || st.PacksAfter > maxPacks || st.Live != -1 || !slices.Contains(packNames(t, dir), baseName) {
		t.Fatalf("stats %+v (Collect's %+v), packs %v: want the small packs merged, the base %s kept", st, fst, packNames(t, dir), baseName)
	}
}

// TestCollectEntriesFullPassWhenDeadMay: past deadShare copies per entry
// the full pass runs: dead packs are removed and the live ones counted.
func TestCollectEntriesFullPassWhenDeadMay(t *testing.T) {
	dir := t.TempDir()
	var live []Hash
	for i := range 4 {
		h, _ := makePack(t, dir, testDoc(i, 300), testDoc(100+i, 300), testDoc(200+i, 300))
		live = append(live, h[0])
	}
	s := OpenStore(dir)
	defer s.Close()
	st, err := s.CollectEntries(entriesOf(live))
	if err != nil {
		t.Fatal(err)
	}
	if st.Live != len(live) || st.Objects != len(live) {
		t.Fatalf("stats %+v: want the %d live objects alone, counted", st, len(live))
	}
}

// TestCollectEntriesRandom follows random edits of a manifest, each
// refresh adding a pack of its new texts: after every collection all live
// objects are there, the packs are bounded, the copies stay within
// deadShare per entry (plus what the last packs hold), and the live
// objects are the full pass's.
func TestCollectEntriesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	dir := t.TempDir()
	var docs []*Doc
	for i := range 40 {
		docs = append(docs, testDoc(i, 200+r.IntN(800)))
	}
	hs, _ := makePack(t, dir, docs...)
	for step := range 120 {
		var fresh []*Doc
		for range 1 + r.IntN(3) {
			i := r.IntN(len(docs))
			docs[i] = testDoc(10000+step*10+i, 200+r.IntN(800))
			fresh = append(fresh, docs[i])
		}
		makePack(t, dir, fresh...)
		for i, d := range docs {
			hs[i] = HashBytes(d.Encode())
		}
		entries := entriesOf(hs)
		s := OpenStore(dir)
		if s.CollectDue() {
			full := copyDir(t, dir)
			if _, err := s.CollectEntries(entries); err != nil {
				t.Fatal(err)
			}
			fs := OpenStore(full)
			if _, err := fs.Collect(keepOf(entries)); err != nil {
				t.Fatal(err)
			}
			fs.Close()
			if got, want := liveObjects(t, dir, entries), liveObjects(t, full, entries); !slices.Equal(got, want) {
				t.Fatalf("step %d: live objects %v, the full pass keeps %v", step, got, want)
			}
		}
		s.Close()
		checkDocs(t, dir, hs, docs)
		if n := len(packNames(t, dir)); n > maxPacks+1 {
			t.Fatalf("step %d: %d packs", step, n)
		}
		if n := len(storeObjects(t, dir)); n > deadShare*len(entries)+3*(maxPacks+1) {
			t.Fatalf("step %d: %d object copies for %d entries", step, n, len(entries))
		}
	}
}

// liveObjects lists the distinct objects of dir that entries use.
func liveObjects(t *testing.T, dir string, entries []Entry) []string {
	keep := keepOf(entries)
	var out []string
	for _, o := range slices.Compact(storeObjects(t, dir)) {
		for h := range keep {
			if h.String() == o {
				out = append(out, o)
			}
		}
	}
	return out
}
