package sortedfile

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

const size = 48 // the callers' record size: a 32-byte key, then 16 bytes

// records returns n random records sorted by their 4-byte key (short, so
// that keys repeat), laid out after a header of off bytes.
func records(rng *rand.Rand, n int, off int) (file []byte, recs [][]byte) {
	for range n {
		r := make([]byte, size)
		for i := range r {
			r[i] = byte(rng.IntN(4)) // keys of 4 bytes over 4 letters: repeats
		}
		recs = append(recs, r)
	}
	slices.SortStableFunc(recs, func(a, b []byte) int { return bytes.Compare(a[:4], b[:4]) })
	file = make([]byte, off)
	for _, r := range recs {
		file = append(file, r...)
	}
	return file, recs
}

// want is Search as sort.Search over the records in memory.
func want(recs [][]byte, key []byte) []byte {
	i := sort.Search(len(recs), func(i int) bool { return bytes.Compare(recs[i][:len(key)], key) >= 0 })
	if i == len(recs) || !bytes.Equal(recs[i][:len(key)], key) {
		return nil
	}
	return recs[i]
}

// TestSearchMatchesSortSearch: every key of 4 bytes over the 4 letters
// (present or not), over region sizes around Window, finds what sort.Search
// over the records in memory finds (the first of equal keys included).
func TestSearchMatchesSortSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, Window - 1, Window, Window + 1, 2*Window + 3, 300, 1000} {
		file, recs := records(rng, n, 7)
		for k := range 256 {
			key := []byte{byte(k >> 6), byte(k >> 4 & 3), byte(k >> 2 & 3), byte(k & 3)}
			got, err := Search(bytes.NewReader(file), 7, n, size, key)
			if err != nil {
				t.Fatalf("n %d key %v: %v", n, key, err)
			}
			if w := want(recs, key); !bytes.Equal(got, w) || (got == nil) != (w == nil) {
				t.Fatalf("n %d key %v: got %v, want %v", n, key, got, w)
			}
		}
	}
}

// failAt is a file whose reads that touch byte bad fail.
type failAt struct {
	b   []byte
	bad int64
}

var errDisk = errors.New("disk error")

func (f failAt) ReadAt(p []byte, off int64) (int, error) {
	if off <= f.bad && f.bad < off+int64(len(p)) {
		return 0, errDisk
	}
	return bytes.NewReader(f.b).ReadAt(p, off)
}

// TestSearchReportsReads: a read error of any record the search touches,
// and a file shorter than its region, end the search with an error, never
// with a wrong record.
func TestSearchReportsReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 500
	file, recs := records(rng, n, 0)
	key := recs[n/3][:4]
	failed := 0
	for rec := range n {
		got, err := Search(failAt{file, int64(rec*size + 5)}, 0, n, size, key)
		switch {
		case errors.Is(err, errDisk):
			failed++
		case err != nil:
			t.Fatalf("record %d unreadable: %v", rec, err)
		case !bytes.Equal(got, want(recs, key)):
			t.Fatalf("record %d unreadable: got %v", rec, got)
		}
	}
	if failed == 0 || failed == n {
		t.Fatalf("%d of %d unreadable records failed the search: want only those it reads", failed, n)
	}
	if _, err := Search(bytes.NewReader(file[:len(file)-1]), 0, n, size, recs[n-1][:4]); !errors.Is(err, ErrShort) {
		t.Fatalf("truncated region: %v, want ErrShort", err)
	}
}
