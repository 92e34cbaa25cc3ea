package mirror

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStoreCollectDeadPacks(t *testing.T) {
	dir := t.TempDir()
	a, packA := makePack(t, dir, testDoc(0, 500), testDoc(1, 500))
	b, packB := makePack(t, dir, testDoc(2, 500))
	s := OpenStore(dir)
	defer s.Close()
	st, err := s.Collect(map[Hash]bool{a[0]: true, a[1]: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.PacksBefore != 2 || st.PacksAfter != 1 || st.Removed != 1 || st.Rewritten || st.Live != 2 || st.BytesReclaimed <= 0 {
		t.Errorf("stats = %+v, want 2 packs -> 1, one removed, no rewrite", st)
	}
	if got := packNames(t, dir); !cmp.Equal(got, []string{packA}) {
		t.Errorf("packs = %v, want only %s (dead %s removed)", got, packA, packB)
	}
	if s.Has(b[0]) {
		t.Error("a dead object survived")
	}
	// Half the objects of a pack dead (not more than half its bytes): kept
	// as it is.
	st, err = s.Collect(map[Hash]bool{a[0]: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rewritten || !cmp.Equal(packNames(t, dir), []string{packA}) {
		t.Errorf("pack rewritten with half its bytes live: %+v", st)
	}
	// Nothing live: the store empties.
	if st, err = s.Collect(nil); err != nil || st.PacksAfter != 0 || len(packNames(t, dir)) != 0 {
		t.Errorf("Collect(nil) = %+v, %v; packs %v", st, err, packNames(t, dir))
	}
	if _, err := OpenStore(filepath.Join(t.TempDir(), "none")).Collect(nil); err != nil {
		t.Errorf("Collect of a missing store: %v", err)
	}
}

func TestStoreCollectRewrite(t *testing.T) {
	dir := t.TempDir()
	docs := make([]*Doc, 10)
	for i := range docs {
		docs[i] = testDoc(i, 400+i)
	}
	hs1, pack1 := makePack(t, dir, docs[:5]...)
	hs2, pack2 := makePack(t, dir, docs[5:]...)
	hs := append(hs1, hs2...)
	// One live object in each pack: dead bytes dominate.
	keep := map[Hash]bool{hs[0]: true, hs[7]: true}
	s := OpenStore(dir)
	defer s.Close()
	st, err := s.Collect(keep)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Rewritten || st.PacksBefore != 2 || st.PacksAfter != 1 || st.Objects != 2 || st.Live != 2 || st.BytesReclaimed <= 0 {
		t.Errorf("stats = %+v, want a rewrite into one pack of 2 objects", st)
	}
	got := packNames(t, dir)
	if len(got) != 1 || got[0] == pack1 || got[0] == pack2 {
		t.Fatalf("packs after rewrite = %v, want one new pack", got)
	}
	for i, h := range hs {
		if s.Has(h) != keep[h] {
			t.Errorf("doc %d: Has = %v after rewrite, live = %v", i, s.Has(h), keep[h])
		}
	}
	checkDocs(t, dir, []Hash{hs[0], hs[7]}, []*Doc{docs[0], docs[7]})
	// A rewritten store is stable: collecting again changes nothing.
	if st, err := s.Collect(keep); err != nil || st.Rewritten || st.Removed != 0 {
		t.Errorf("second Collect = %+v, %v; want nothing to do", st, err)
	}
}

// TestStoreCollectMerge checks that more than maxPacks packs, even all
// live, are merged into one.
func TestStoreCollectMerge(t *testing.T) {
	dir := t.TempDir()
	var hs []Hash
	var docs []*Doc
	keep := map[Hash]bool{}
	for i := range maxPacks + 2 {
		d := testDoc(i, 200)
		h, _ := makePack(t, dir, d)
		hs, docs = append(hs, h[0]), append(docs, d)
		keep[h[0]] = true
	}
	s := OpenStore(dir)
	defer s.Close()
	st, err := s.Collect(keep)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Rewritten || st.PacksBefore != maxPacks+2 || st.PacksAfter != 1 || st.Objects != len(hs) {
		t.Errorf("stats = %+v, want %d packs merged into one", st, maxPacks+2)
	}
	if n := packNames(t, dir); len(n) != 1 {
		t.Errorf("packs after merge: %v", n)
	}
	checkDocs(t, dir, hs, docs)
}

// TestStoreCollectKeepsLargePack checks that merging the small packs of
// one-file refreshes leaves a large base pack alone, and that repeated
// merges keep the pack count bounded without copying the base again.
func TestStoreCollectKeepsLargePack(t *testing.T) {
	dir := t.TempDir()
	keep := map[Hash]bool{}
	var base []*Doc
	for i := range 50 {
		base = append(base, testDoc(1000+i, 2000))
	}
	baseHashes, baseName := makePack(t, dir, base...)
	for _, h := range baseHashes {
		keep[h] = true
	}
	hs, docs := baseHashes, base
	for round := range 5 {
		for i := range maxPacks {
			d := testDoc(round*100+i, 200)
			h, _ := makePack(t, dir, d)
			hs, docs = append(hs, h[0]), append(docs, d)
			keep[h[0]] = true
		}
		s := OpenStore(dir)
		st, err := s.Collect(keep)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		names := packNames(t, dir)
		if !slices.Contains(names, baseName) {
			t.Fatalf("round %d: base pack %s was rewritten; packs now %v (stats %+v)", round, baseName, names, st)
		}
		if len(names) > maxPacks {
			t.Fatalf("round %d: %d packs left after Collect: %v", round, len(names), names)
		}
	}
	checkDocs(t, dir, hs, docs)
}

// TestStoreCollectAtLimit checks that maxPacks live packs are left alone.
func TestStoreCollectAtLimit(t *testing.T) {
	dir := t.TempDir()
	keep := map[Hash]bool{}
	for i := range maxPacks {
		h, _ := makePack(t, dir, testDoc(i, 200))
		keep[h[0]] = true
	}
	s := OpenStore(dir)
	defer s.Close()
	st, err := s.Collect(keep)
	if err != nil || st.Rewritten || st.PacksAfter != maxPacks {
		t.Errorf("Collect = %+v, %v; want %d packs left alone", st, err, maxPacks)
	}
}

// TestStoreCollectSweep checks that Collect removes temporary files and the
// old layout's fan-out directories, leaves unknown names alone, and
// publishes the session's objects first.
func TestStoreCollectSweep(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "ab")
	write := func(p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(old, strings.Repeat("c", 62)))
	write(filepath.Join(old, tempPrefix+"123"))
	write(filepath.Join(dir, tempPrefix+"pack-123"))
	write(filepath.Join(dir, "README"))
	write(filepath.Join(dir, "zz", "keep"))
	write(filepath.Join(dir, "pack-nothex.pack"))
	s := OpenStore(dir)
	defer s.Close()
	d := testDoc(1, 100)
	h, err := s.Put(d) // not synced: Collect publishes it
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Collect(map[Hash]bool{h: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Removed != 2 || st.PacksAfter != 1 || st.Live != 1 {
		t.Errorf("stats = %+v, want a temp file and a fan-out dir removed, one pack", st)
	}
	for _, p := range []string{old, filepath.Join(dir, tempPrefix+"pack-123")} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s survived Collect", p)
		}
	}
	for _, p := range []string{"README", "zz/keep", "pack-nothex.pack"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("Collect removed %s, which it does not own: %v", p, err)
		}
	}
	checkDocs(t, dir, []Hash{h}, []*Doc{d})
}

// TestStoreCollectDue: a store of a few intact packs has nothing for
// Collect to do but count; more packs than maxPacks, a temporary file, a
// damaged pack or an unpublished Put make it due, and a Collect that
// removed the leftovers makes it not due again.
func TestStoreCollectDue(t *testing.T) {
	dir := t.TempDir()
	for i := range maxPacks {
		makePack(t, dir, testDoc(i, 300))
	}
	due := func(want bool, what string) {
		t.Helper()
		s := OpenStore(dir)
		defer s.Close()
		if got := s.CollectDue(); got != want {
			t.Errorf("%s: CollectDue = %v, want %v", what, got, want)
		}
	}
	due(false, "maxPacks intact packs")
	makePack(t, dir, testDoc(100, 300))
	due(true, "maxPacks+1 packs")
	s := OpenStore(dir)
	if _, err := s.Collect(nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	due(false, "after Collect")
	tmp := filepath.Join(dir, tempPrefix+"pack-x")
	if err := os.WriteFile(tmp, []byte("torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	due(true, "a temporary file")
	s = OpenStore(dir)
	if !s.CollectDue() {
		t.Fatal("temporary file not seen")
	}
	if _, err := s.Collect(nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	due(false, "temporary file collected")
	if err := os.WriteFile(filepath.Join(dir, packPrefix+strings.Repeat("f", 16)+packSuffix), []byte("not a pack"), 0o600); err != nil {
		t.Fatal(err)
	}
	if names := packNames(t, dir); len(names) == 0 {
		t.Fatal("damaged pack not named as a pack; fix the test's name")
	}
	due(true, "a damaged pack")
	s = OpenStore(dir)
	defer s.Close()
	if _, err := s.Collect(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(testDoc(200, 300)); err != nil {
		t.Fatal(err)
	}
	if !s.CollectDue() {
		t.Error("an unpublished Put: CollectDue = false, want true")
	}
}
