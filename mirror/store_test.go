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

	"github.com/golang/snappy"
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
	one := packEntry{size: int64(len(snappy.Encode(nil, e.Encode())))}.recordLen() // one record, compressed
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
		es, _ := p.index()
		for _, e := range es {
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
