package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testDoc returns a distinct Doc whose text is about size bytes.
func testDoc(i, size int) *Doc {
	var b strings.Builder
	for b.Len() < size {
		fmt.Fprintf(&b, "line %d of document %d: the quick brown fox jumps over the lazy dog\n", b.Len(), i)
	}
	return &Doc{Parser: "markdown@2", Title: fmt.Sprintf("Doc %d", i), Lang: "markdown", Tags: []string{"t"}, Text: b.String()}
}

// putAll puts docs into s and returns their hashes.
func putAll(t testing.TB, s *Store, docs []*Doc) []Hash {
	t.Helper()
	hs := make([]Hash, len(docs))
	for i, d := range docs {
		h, err := s.Put(d)
		if err != nil {
			t.Fatal(err)
		}
		hs[i] = h
	}
	return hs
}

// makePack writes docs into dir as one published pack and returns their
// hashes and the pack's file name.
func makePack(t *testing.T, dir string, docs ...*Doc) ([]Hash, string) {
	t.Helper()
	before := packNames(t, dir)
	s := OpenStore(dir)
	defer s.Close()
	hs := putAll(t, s, docs)
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	for _, n := range packNames(t, dir) {
		if !slices.Contains(before, n) {
			return hs, n
		}
	}
	t.Fatal("Sync published no pack")
	return nil, ""
}

// packNames lists the published packs in dir.
func packNames(t *testing.T, dir string) []string {
	t.Helper()
	return namesIn(t, dir, isPackName)
}

// tempNames lists the temporary files in dir.
func tempNames(t *testing.T, dir string) []string {
	t.Helper()
	return namesIn(t, dir, func(n string) bool { return strings.HasPrefix(n, tempPrefix) })
}

func namesIn(t *testing.T, dir string, match func(string) bool) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if match(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// checkDocs fails unless a fresh store on dir returns every doc.
func checkDocs(t *testing.T, dir string, hs []Hash, docs []*Doc) {
	t.Helper()
	s := OpenStore(dir)
	defer s.Close()
	for i, h := range hs {
		got, err := s.Get(h)
		if err != nil {
			t.Fatalf("Get(doc %d): %v", i, err)
		}
		if diff := cmp.Diff(docs[i], got); diff != "" {
			t.Fatalf("Get(doc %d) mismatch (-want +got):\n%s", i, diff)
		}
	}
}

func TestStorePutGet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mirror", "objects")
	s := OpenStore(dir)
	defer s.Close()
	d := &Doc{Parser: "text@2", Lang: "text", Text: "hello"}
	h, err := s.Put(d)
	if err != nil {
		t.Fatal(err)
	}
	if h != d.TextHash() {
		t.Errorf("Put returned %s, want TextHash %s", h, d.TextHash())
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(h)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(d, got); diff != "" {
		t.Errorf("Get mismatch (-want +got):\n%s", diff)
	}
	checkDocs(t, dir, []Hash{h}, []*Doc{d})
	if _, err := s.Get(HashBytes([]byte("missing"))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Get(missing) error = %v, want ErrNotExist", err)
	}
	if n := packNames(t, dir); len(n) != 1 {
		t.Errorf("packs after one Sync: %v, want one", n)
	}
}

// TestStorePutExisting checks that a second Put of a stored Doc writes
// nothing, in the same session and in a later one.
func TestStorePutExisting(t *testing.T) {
	dir := t.TempDir()
	d := testDoc(1, 100)
	hs, pack := makePack(t, dir, d)
	fi1, err := os.Stat(filepath.Join(dir, pack))
	if err != nil {
		t.Fatal(err)
	}
	s := OpenStore(dir)
	defer s.Close()
	for range 2 {
		if h, err := s.Put(d); err != nil || h != hs[0] {
			t.Fatalf("Put of a stored doc = %s, %v", h, err)
		}
		if n := tempNames(t, dir); len(n) != 0 {
			t.Fatalf("Put of a stored doc started a pack: %v", n)
		}
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	fi2, err := os.Stat(filepath.Join(dir, pack))
	if err != nil {
		t.Fatal(err)
	}
	if n := packNames(t, dir); len(n) != 1 || fi1.Size() != fi2.Size() || !fi1.ModTime().Equal(fi2.ModTime()) {
		t.Errorf("after Put of a stored doc and Sync: packs %v, size %d -> %d", n, fi1.Size(), fi2.Size())
	}
	// Within one session too: the second Put adds nothing.
	s2 := OpenStore(t.TempDir())
	defer s2.Close()
	e := testDoc(2, 100)
	putAll(t, s2, []*Doc{e, e, e})
	one := packEntry{size: int64(len(e.Encode()))}.recordLen()
	if got := s2.sess.off; got != int64(packHeaderLen)+one {
		t.Errorf("session pack holds %d bytes after three Puts of one doc, want %d", got, int64(packHeaderLen)+one)
	}
}

// TestStoreReadBeforeSync checks that objects are readable by the session
// that Put them before Sync, whether still buffered or not, and invisible
// to other stores until then; Close without Sync discards them.
func TestStoreReadBeforeSync(t *testing.T) {
	dir := t.TempDir()
	s := OpenStore(dir)
	docs := []*Doc{testDoc(0, 10), testDoc(1, packBufSize+1000), testDoc(2, 50), testDoc(3, 5700)}
	var hs []Hash
	for i, d := range docs {
		hs = append(hs, putAll(t, s, []*Doc{d})...)
		for j := range hs { // interleave reads of buffered and flushed records
			got, err := s.Get(hs[j])
			if err != nil {
				t.Fatalf("after Put %d, Get(%d): %v", i, j, err)
			}
			if diff := cmp.Diff(docs[j], got); diff != "" {
				t.Fatalf("after Put %d, Get(%d) mismatch:\n%s", i, j, diff)
			}
			if !s.Has(hs[j]) {
				t.Fatalf("Has(%d) = false before Sync", j)
			}
		}
	}
	other := OpenStore(dir)
	if other.Has(hs[0]) {
		t.Error("another store sees an object before Sync")
	}
	other.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if n := tempNames(t, dir); len(n) != 0 {
		t.Errorf("Close left temporary files: %v", n)
	}
	if OpenStore(dir).Has(hs[0]) {
		t.Error("an object survived Close without Sync")
	}
}

// TestStoreSyncAgain checks that Puts after a Sync go to a new pack and
// that a Sync with nothing to publish writes nothing.
func TestStoreSyncAgain(t *testing.T) {
	dir := t.TempDir()
	s := OpenStore(dir)
	defer s.Close()
	docs := []*Doc{testDoc(0, 300), testDoc(1, 300), testDoc(2, 300)}
	hs := putAll(t, s, docs[:2])
	for range 2 {
		if err := s.Sync(); err != nil {
			t.Fatal(err)
		}
	}
	hs = append(hs, putAll(t, s, docs[2:])...)
	if got, err := s.Get(hs[2]); err != nil || got.Text != docs[2].Text {
		t.Fatalf("Get after the second session's Put: %v", err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if n := packNames(t, dir); len(n) != 2 {
		t.Errorf("packs = %v, want two", n)
	}
	checkDocs(t, dir, hs, docs)
}

// TestStoreConcurrentPut puts overlapping sets of docs from many goroutines
// while others read and one syncs; each object must be stored exactly once.
func TestStoreConcurrentPut(t *testing.T) {
	dir := t.TempDir()
	s := OpenStore(dir)
	defer s.Close()
	const n, workers = 200, 16
	docs := make([]*Doc, n)
	want := make([]Hash, n)
	for i := range docs {
		docs[i] = testDoc(i, 100+i*40)
		want[i] = docs[i].TextHash()
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers*n)
	for w := range workers {
		wg.Go(func() {
			for k := range n {
				i := (k*7 + w*13) % n
				h, err := s.Put(docs[i])
				if err != nil || h != want[i] {
					errs <- fmt.Errorf("Put(%d) = %s, %v", i, h, err)
					return
				}
				if got, err := s.Get(h); err != nil || got.Text != docs[i].Text {
					errs <- fmt.Errorf("Get(%d) after Put: %v", i, err)
					return
				}
				if w == 0 && k == n/2 {
					if err := s.Sync(); err != nil {
						errs <- err
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	s.mu.RLock()
	seen := map[Hash]int{}
	for _, p := range s.packs {
		size := int64(packHeaderLen + packTailLen)
		for _, e := range p.entries {
			seen[e.hash]++
			size += e.recordLen() + int64(packEntryLen)
		}
		if size != p.size {
			t.Errorf("pack %s has %d bytes, its index accounts for %d: records written twice", p.name, p.size, size)
		}
	}
	s.mu.RUnlock()
	for i, h := range want {
		if seen[h] != 1 {
			t.Errorf("doc %d stored %d times, want once", i, seen[h])
		}
	}
	checkDocs(t, dir, want, docs)
}

// packLayout returns the bytes of pack name in dir and where its index
// starts, read through the pack's own tail.
func packLayout(t *testing.T, dir, name string) ([]byte, int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := openPack(filepath.Join(dir, name), name)
	if err != nil {
		t.Fatal(err)
	}
	p.f.Close()
	return b, len(b) - packTailLen - len(p.entries)*packEntryLen
}

// assertIgnored checks that a store on dir does not see hs, still reads
// good (the hashes of an intact pack), and that Collect removes the file
// bad while keeping the intact pack.
func assertIgnored(t *testing.T, dir, bad string, hs []Hash, good []Hash, what string) {
	t.Helper()
	s := OpenStore(dir)
	defer s.Close()
	for _, h := range hs {
		if s.Has(h) {
			t.Fatalf("%s: Has reports an object of an unreadable pack", what)
		}
		if _, err := s.Get(h); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%s: Get = %v, want ErrNotExist", what, err)
		}
	}
	keep := map[Hash]bool{}
	for _, h := range append(slices.Clone(hs), good...) {
		keep[h] = true
	}
	st, err := s.Collect(keep)
	if err != nil {
		t.Fatalf("%s: Collect: %v", what, err)
	}
	if _, err := os.Stat(filepath.Join(dir, bad)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s: Collect kept the unreadable pack (stats %+v)", what, st)
	}
	for _, h := range good {
		if _, err := s.Get(h); err != nil {
			t.Fatalf("%s: intact pack unreadable after Collect: %v", what, err)
		}
	}
}

// TestStoreTornPack truncates a pack at every length that cuts its index or
// tail (and at a few inside the records): the pack must be ignored as a
// whole and removed by Collect.
func TestStoreTornPack(t *testing.T) {
	src := t.TempDir()
	docs := []*Doc{testDoc(0, 40), testDoc(1, 70), testDoc(2, 20)}
	hs, name := makePack(t, src, docs...)
	full, indexStart := packLayout(t, src, name)
	cuts := []int{0, 1, packHeaderLen, packHeaderLen + 10, indexStart / 2, indexStart - 1}
	for n := indexStart; n < len(full); n++ {
		cuts = append(cuts, n)
	}
	for _, n := range cuts {
		dir := t.TempDir()
		good, _ := makePack(t, dir, testDoc(9, 50))
		if err := os.WriteFile(filepath.Join(dir, name), full[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		assertIgnored(t, dir, name, hs, good, fmt.Sprintf("cut at %d of %d", n, len(full)))
	}
}

// TestStoreFlippedIndexByte flips every byte of a pack's header, index and
// tail in turn: the pack must be ignored and removed by Collect.
func TestStoreFlippedIndexByte(t *testing.T) {
	src := t.TempDir()
	hs, name := makePack(t, src, testDoc(0, 40), testDoc(1, 70))
	full, indexStart := packLayout(t, src, name)
	dir := t.TempDir()
	good, _ := makePack(t, dir, testDoc(9, 50))
	offsets := []int{0, packHeaderLen - 1}
	for i := indexStart; i < len(full); i++ {
		offsets = append(offsets, i)
	}
	for _, i := range offsets {
		b := slices.Clone(full)
		b[i] ^= 0x10
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		assertIgnored(t, dir, name, hs, good, fmt.Sprintf("byte %d of %d flipped", i, len(full)))
	}
}

// TestStoreFlippedRecordByte flips every byte of a pack's records in turn:
// Get of the object whose record holds it must fail with ErrCorrupt, never
// return a wrong doc, and the other objects stay readable.
func TestStoreFlippedRecordByte(t *testing.T) {
	src := t.TempDir()
	docs := []*Doc{testDoc(0, 40), testDoc(1, 70), testDoc(2, 20)}
	hs, name := makePack(t, src, docs...)
	full, indexStart := packLayout(t, src, name)
	p, err := openPack(filepath.Join(src, name), name)
	if err != nil {
		t.Fatal(err)
	}
	p.f.Close()
	dir := t.TempDir()
	for i := packHeaderLen; i < indexStart; i++ {
		b := slices.Clone(full)
		b[i] ^= 0x01
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		s := OpenStore(dir)
		for k, h := range hs {
			e, _ := p.find(h)
			hit := int64(i) >= e.off && int64(i) < e.off+e.recordLen()
			got, err := s.Get(h)
			switch {
			case hit && !errors.Is(err, ErrCorrupt):
				t.Fatalf("byte %d flipped in record of doc %d: Get = %v, want ErrCorrupt", i, k, err)
			case !hit && err != nil:
				t.Fatalf("byte %d flipped elsewhere: Get(doc %d) = %v", i, k, err)
			case err == nil && !cmp.Equal(got, docs[k]):
				t.Fatalf("byte %d flipped: Get(doc %d) returned a wrong doc", i, k)
			}
		}
		s.Close()
	}
}

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

// benchDocs returns n docs of about 5.7 KB, the size of a typical note.
func benchDocs(n int) ([]*Doc, int64) {
	docs := make([]*Doc, n)
	var total int64
	for i := range docs {
		docs[i] = testDoc(i, 5700)
		total += int64(len(docs[i].Encode()))
	}
	return docs, total
}

// BenchmarkStorePut stores 2,000 docs of about 5.7 KB and syncs, as a first
// refresh of 2,000 files does.
func BenchmarkStorePut(b *testing.B) {
	docs, total := benchDocs(2000)
	root := b.TempDir()
	b.SetBytes(total)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		dir := filepath.Join(root, fmt.Sprint(i))
		i++
		s := OpenStore(dir)
		putAll(b, s, docs)
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStoreGet reads one doc (verified and decoded) per op from a
// store of 2,000.
func BenchmarkStoreGet(b *testing.B) {
	docs, _ := benchDocs(2000)
	dir := b.TempDir()
	w := OpenStore(dir)
	hs := putAll(b, w, docs)
	if err := w.Sync(); err != nil {
		b.Fatal(err)
	}
	w.Close()
	s := OpenStore(dir)
	defer s.Close()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := s.Get(hs[i%len(hs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
