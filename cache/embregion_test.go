package cache

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/autorag/autorag/internal/sortedfile"
)

// refIndex is the index as the previous version loaded it: vectors.idx
// read whole, the sorted region searched in memory, every tail entry added
// (and checked against the sorted region) at once. Lookups in place must
// agree with it whatever the files hold.
type refIndex struct {
	base  []byte
	slots map[[32]byte]slot
	gone  map[[32]byte]bool
}

func (x *refIndex) baseFind(h [32]byte) (slot, bool, bool) {
	n := len(x.base) / idxEntryLen
	i := sort.Search(n, func(i int) bool { return bytes.Compare(x.base[i*idxEntryLen:i*idxEntryLen+32], h[:]) >= 0 })
	if i == n || !bytes.Equal(x.base[i*idxEntryLen:i*idxEntryLen+32], h[:]) {
		return slot{}, false, false
	}
	_, s, ok := parseIdxEntry(x.base[i*idxEntryLen : (i+1)*idxEntryLen])
	return s, true, ok
}

func (x *refIndex) add(h [32]byte, s slot) {
	if _, ok := x.slots[h]; !ok {
		if _, present, _ := x.baseFind(h); present {
			x.gone[h] = true
		}
	}
	x.slots[h] = s
}

func (x *refIndex) lookup(h [32]byte) (slot, bool) {
	if s, ok := x.slots[h]; ok {
		return s, true
	}
	if x.gone[h] {
		return slot{}, false
	}
	s, _, ok := x.baseFind(h)
	return s, ok
}

func (x *refIndex) len() int { return len(x.base)/idxEntryLen - len(x.gone) + len(x.slots) }

// loadRef loads dir's cache the previous way (index and log scan).
func loadRef(t *testing.T, dir, identity string) (*refIndex, bool) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, logName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	size := fi.Size()
	x := &refIndex{slots: map[[32]byte]slot{}, gone: map[[32]byte]bool{}}
	nonce, hdrLen, ok, err := readLogHeader(f, identity)
	if err != nil || !ok {
		return x, false
	}
	covered := hdrLen
	b, err := os.ReadFile(filepath.Join(dir, idxName))
	if sortedLen, sortedEnd, ok := parseIdxHeader(b, int64(len(b)), nonce); err == nil && ok && sortedEnd >= hdrLen && sortedEnd <= size {
		x.base = b[idxHeaderLen : idxHeaderLen+sortedLen]
		covered = sortedEnd
		for tail := b[idxHeaderLen+sortedLen:]; len(tail) >= idxEntryLen; tail = tail[idxEntryLen:] {
			h, e, ok := parseIdxEntry(tail[:idxEntryLen])
			if !ok || e.off < covered || e.off+recordLen(e.dims) > size {
				break
			}
			x.add(h, e)
			covered = e.off + recordLen(e.dims)
		}
	}
	scan := newEntryIndex(nil, 0)
	if _, err := scanLog(&window{r: f, size: size}, covered, &scan); err != nil {
		t.Fatal(err)
	}
	for h, s := range scan.slots {
		x.add(h, s)
	}
	return x, true
}

// writeRandomCache fills a cache with n vectors in up to three sessions: the
// first ones end up in the sorted region (the index is rebuilt from the log),
// the last in the tail.
func writeRandomCache(t *testing.T, r *rand.Rand, dir, identity string, n int) [][32]byte {
	t.Helper()
	var hs [][32]byte
	put := func(k int) {
		c := openEmb(t, dir, identity)
		for range k {
			h := testHash(r.IntN(1 << 30))
			hs = append(hs, h)
			if err := c.Put(h, testVec(len(hs), 1+r.IntN(4))); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	sorted := r.IntN(n + 1)
	put(sorted)
	if r.IntN(4) > 0 { // rebuilt sorted from the log by the next writer
		_ = os.Remove(filepath.Join(identityDir(dir, identity), idxName))
	}
	put(r.IntN(n - sorted + 1))
	put(n - len(hs))
	return hs
}

// damageFiles flips, truncates or extends the index (mostly) or the log.
func damageFiles(t *testing.T, r *rand.Rand, sub string) {
	t.Helper()
	for range r.IntN(4) {
		name := idxName
		if r.IntN(5) == 0 {
			name = logName
		}
		path := filepath.Join(sub, name)
		b, err := os.ReadFile(path)
		if err != nil || len(b) == 0 {
			continue
		}
		switch r.IntN(4) {
		case 0:
			b = b[:r.IntN(len(b))]
		case 1:
			b = append(b, make([]byte, r.IntN(100))...)
		default:
			for range 1 + r.IntN(8) {
				b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
			}
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLookupMatchesFullDecode opens random, randomly damaged caches and
// checks that every lookup (before and after the region is read whole),
// Len and the entry list agree with the index loaded the previous way.
func TestLookupMatchesFullDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 2))
	const identity = "test/region/4"
	for round := range 60 {
		dir := t.TempDir()
		sub := identityDir(dir, identity)
		hs := writeRandomCache(t, r, dir, identity, 1+r.IntN(600))
		if round%3 != 0 {
			damageFiles(t, r, sub)
		}
		ref, ok := loadRef(t, sub, identity)
		c := openEmb(t, dir, identity)
		if got, want := c.Len(), ref.len(); ok && got != want {
			t.Fatalf("round %d: Len = %d, want %d", round, got, want)
		}
		probes := append([][32]byte(nil), hs...)
		for range 50 {
			probes = append(probes, testHash(-1-r.IntN(1<<20)))
		}
		r.Shuffle(len(probes), func(i, j int) { probes[i], probes[j] = probes[j], probes[i] })
		for i, h := range probes {
			c.mu.RLock()
			got, gok := c.index.lookup(h)
			c.mu.RUnlock()
			want, wok := ref.lookup(h)
			if gok != wok || (gok && got != want) {
				t.Fatalf("round %d, lookup %d (%d in memory): got %v %v, want %v %v",
					round, i, c.index.base.len(), got, gok, want, wok)
			}
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRegionFindInFile checks the search from the file against the search in
// memory over the same bytes, sorted or not, for sizes around the window.
func TestRegionFindInFile(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{1, 2, sortedfile.Window - 1, sortedfile.Window, sortedfile.Window + 1, 2*sortedfile.Window + 3, 1000} {
		for _, sorted := range []bool{true, false} {
			entries := make([]hashSlot, n)
			for i := range entries {
				entries[i] = hashSlot{testHash(r.IntN(3 * n)), slot{off: int64(i), dims: 1}}
			}
			b := sortedEntries(entries)
			if !sorted {
				r.Shuffle(n, func(i, j int) {
					var tmp [idxEntryLen]byte
					copy(tmp[:], b[i*idxEntryLen:])
					copy(b[i*idxEntryLen:(i+1)*idxEntryLen], b[j*idxEntryLen:(j+1)*idxEntryLen])
					copy(b[j*idxEntryLen:], tmp[:])
				})
			}
			path := filepath.Join(t.TempDir(), "region")
			if err := os.WriteFile(path, append(make([]byte, 10), b...), 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			file, mem := fileRegion(f, 10, n), memRegion(b)
			for k := range 4 * n {
				h := testHash(k)
				if got, want := file.findInFile(h), mem.find(h); !bytes.Equal(got, want) {
					t.Fatalf("n=%d sorted=%v hash %d: in file %x, in memory %x", n, sorted, k, got, want)
				}
			}
			if file.mem.Load() != nil {
				t.Fatalf("findInFile read the region whole")
			}
			file.close()
		}
	}
}

// forget is the previous version's forget.
func (x *refIndex) forget(h [32]byte, s slot) {
	if cur, ok := x.slots[h]; ok {
		if cur == s {
			delete(x.slots, h)
		}
		return
	}
	if cur, present, ok := x.baseFind(h); present && (!ok || cur == s) {
		x.gone[h] = true
	}
}

// TestLookupAfterRePut puts again texts whose sorted entry or record was
// damaged, so that the tail holds hashes the sorted region holds too, then
// damages some of the new records: Len, and every lookup after each Get
// forgot what it found damaged, agree with the previous version.
func TestLookupAfterRePut(t *testing.T) {
	const id, dims, n = "test/reput/4", 4, 400
	r := rand.New(rand.NewPCG(3, 25))
	for round := range 12 {
		dir := t.TempDir()
		sub := identityDir(dir, id)
		logPath, idxPath := filepath.Join(sub, logName), filepath.Join(sub, idxName)
		c := openEmb(t, dir, id)
		putRange(t, c, 0, n, dims)
		_ = c.Close()
		_ = os.Remove(idxPath)
		c = openEmb(t, dir, id)
		putRange(t, c, n, n+1, dims) // rebuilds the index: all n sorted
		_ = c.Close()
		hdr := logHeaderSize(id)
		redo := r.Perm(n)[:20+r.IntN(40)]
		for k, i := range redo {
			if k%2 == 0 {
				flipByte(t, logPath, hdr+int64(i)*recordLen(dims)+recHeaderLen+1)
			} else { // the checksum of its sorted entry; which entry is i is unknown: any
				flipByte(t, idxPath, idxHeaderLen+int64(r.IntN(n))*idxEntryLen+idxEntryLen-1)
			}
		}
		c = openEmb(t, dir, id)
		for _, i := range redo {
			if _, ok := c.Get(testHash(i)); !ok {
				putRange(t, c, i, i+1, dims)
			}
		}
		_ = c.Close()
		st, _ := os.Stat(logPath)
		for range 10 { // damage some of the new records
			flipByte(t, logPath, st.Size()-1-int64(r.IntN(int(st.Size()-hdr)/8)))
		}
		ref, _ := loadRef(t, sub, id)
		c = openEmb(t, dir, id)
		if got, want := c.Len(), ref.len(); got != want {
			t.Fatalf("round %d: Len = %d, want %d", round, got, want)
		}
		for _, i := range r.Perm(n + 1) {
			h := testHash(i)
			if s, ok := ref.lookup(h); ok {
				if _, good := c.Get(h); !good {
					ref.forget(h, s)
				}
			}
			for _, j := range redo {
				hj := testHash(j)
				c.mu.RLock()
				got, gok := c.index.lookup(hj)
				c.mu.RUnlock()
				if want, wok := ref.lookup(hj); gok != wok || (gok && got != want) {
					t.Fatalf("round %d, after Get %d: lookup %d = %v %v, want %v %v", round, i, j, got, gok, want, wok)
				}
			}
		}
		if got, want := c.Len(), ref.len(); got != want {
			t.Fatalf("round %d, after the Gets: Len = %d, want %d", round, got, want)
		}
		_ = c.Close()
	}
}
