package cache

import (
	"bytes"
	"errors"
	"io"
	"os"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/autorag/autorag/internal/sortedfile"
)

// lazyLookups is how many lookups a sortedRegion serves from the file
// before reading it whole. A lookup from the file costs about a dozen
// small preads (BenchmarkEmbeddingsOpenGet: open and 3 lookups in 51 µs);
// reading 300,000 entries whole (14 MB) cost 4 ms, a few hundred such
// lookups. So an incremental refresh (a few lookups per changed chunk)
// never reads the region, and a full one reads it once.
const lazyLookups = 64

// sortedRegion is the sorted region of vectors.idx: n entries of
// idxEntryLen bytes, sorted by hash, starting at off in f. Opening reads
// none of it: the first lazyLookups lookups binary-search the file itself,
// reading only the entries they probe; the next one reads the region whole
// and the rest search it in memory. A region built by this process (a
// rewritten index) has no file and is in memory from the start.
//
// The region is never rewritten in place (writers append after it or
// replace the file by rename), so what a lookup reads later is what Open
// would have read. A read that fails or comes up short makes the entries
// it covers absent: the index loses what it no longer proves.
type sortedRegion struct {
	n       int
	f       *os.File
	off     int64
	mem     atomic.Pointer[[]byte]
	lookups atomic.Int64
	mu      sync.Mutex // serializes reading the region whole and closing f
}

// memRegion returns a region holding b (whole entries) in memory.
func memRegion(b []byte) *sortedRegion {
	r := &sortedRegion{n: len(b) / idxEntryLen}
	b = b[:r.n*idxEntryLen]
	r.mem.Store(&b)
	return r
}

// fileRegion returns a region of n entries at off in f, read on demand; it
// owns f from then on (close).
func fileRegion(f *os.File, off int64, n int) *sortedRegion {
	return &sortedRegion{n: n, f: f, off: off}
}

func (r *sortedRegion) len() int {
	if r == nil {
		return 0
	}
	return r.n
}

// find returns the entry whose hash bytes are h, as the binary search of
// sort.Search over all n entries finds it, or nil. The entry's checksum is
// not checked here.
func (r *sortedRegion) find(h [32]byte) []byte {
	if r.len() == 0 {
		return nil
	}
	if b := r.inMemory(); b != nil {
		i := sort.Search(r.n, func(i int) bool { return bytes.Compare(b[i*idxEntryLen:i*idxEntryLen+32], h[:]) >= 0 })
		if i == r.n || !bytes.Equal(b[i*idxEntryLen:i*idxEntryLen+32], h[:]) {
			return nil
		}
		return b[i*idxEntryLen : (i+1)*idxEntryLen]
	}
	return r.findInFile(h)
}

// inMemory returns the region's bytes, reading them whole once the region
// has served lazyLookups lookups from the file; nil while it has not.
func (r *sortedRegion) inMemory() []byte {
	if p := r.mem.Load(); p != nil {
		return *p
	}
	if r.lookups.Add(1) <= lazyLookups {
		return nil
	}
	b, err := r.whole()
	if err != nil {
		return nil
	}
	return b
}

// whole returns the region's bytes, reading them from the file if they are
// not in memory yet.
func (r *sortedRegion) whole() ([]byte, error) {
	if r.len() == 0 {
		return nil, nil
	}
	if p := r.mem.Load(); p != nil {
		return *p, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if p := r.mem.Load(); p != nil {
		return *p, nil
	}
	if r.f == nil {
		return nil, os.ErrClosed
	}
	b := make([]byte, r.n*idxEntryLen)
	if err := readAtFull(r.f, b, r.off); err != nil {
		return nil, err
	}
	r.mem.Store(&b)
	return b, nil
}

// findInFile is find's binary search over the file (sortedfile.Search);
// a read that fails makes the entry absent.
func (r *sortedRegion) findInFile(h [32]byte) []byte {
	e, err := sortedfile.Search(r.f, r.off, r.n, idxEntryLen, h[:])
	if err != nil {
		return nil
	}
	return e
}

// close releases the region's file; a region in memory keeps serving.
func (r *sortedRegion) close() {
	if r == nil || r.f == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f != nil {
		_ = r.f.Close()
		r.f = nil
	}
}

// readAtFull reads len(b) bytes at off; a short read is an error.
func readAtFull(f *os.File, b []byte, off int64) error {
	if f == nil {
		return os.ErrClosed
	}
	n, err := f.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = errShort
	}
	return err
}
