package mirror

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/autorag/autorag/internal/sortedfile"
)

// lazyLookups is how many lookups a pack answers by searching its index in
// the file before it reads the index whole. A search in the file costs
// about a dozen small preads; reading and checking the index of 100,000
// objects (4.8 MB, hashed whole) costs as much as a few hundred of them. So
// an incremental refresh, whose scan Puts only its changed texts (new
// objects, which no pack holds), reads no index, and a full one reads each
// once.
const lazyLookups = 64

// packIndex is a pack's index, read and checked only when needed: when a
// search of it in the file finds the hash looked up, when the pack has
// answered lazyLookups lookups, or when a collection needs its entries.
// Until then a lookup that the file's index does not hold is a miss
// without the checksum having been checked. That is the answer the checked
// index would give: an index that passes its checks is the file's bytes,
// sorted, and one that fails them makes every lookup of the pack a miss.
type packIndex struct {
	mu      sync.Mutex                  // serializes reading the index
	entries atomic.Pointer[[]packEntry] // the checked index, once read
	bad     atomic.Bool                 // the index failed its checks (ErrCorrupt)
	lookups atomic.Int64
}

func (x *packIndex) setEntries(e []packEntry) { x.entries.Store(&e) }

// find returns the entry of object h.
func (p *pack) find(h Hash) (packEntry, bool) {
	if es := p.entries.Load(); es != nil {
		return searchEntries(*es, h)
	}
	if p.bad.Load() || p.lookups.Add(1) <= lazyLookups && !p.inFile(h) {
		return packEntry{}, false
	}
	es, err := p.index()
	if err != nil {
		return packEntry{}, false
	}
	return searchEntries(es, h)
}

var errBadIndex = errors.New("index failed its checks")

// index returns the pack's checked index, reading it the first time. An
// index that fails its checks yields an error wrapping ErrCorrupt, then and
// on every later call; an I/O error is retried at the next call.
func (p *pack) index() ([]packEntry, error) {
	if es := p.entries.Load(); es != nil {
		return *es, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if es := p.entries.Load(); es != nil {
		return *es, nil
	}
	if p.bad.Load() {
		return nil, errors.Join(errBadIndex, ErrCorrupt)
	}
	es, err := readPackIndex(p.f, p.size, p.tail)
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			p.bad.Store(true)
		}
		return nil, err
	}
	p.setEntries(es)
	return es, nil
}

// inFile reports whether the index in the file seems to hold h: the binary
// search slices.BinarySearchFunc does over the entries (sortedfile.Search).
// A failed read reports true, so that reading the index whole finds out
// what is wrong.
func (p *pack) inFile(h Hash) bool {
	e, err := sortedfile.Search(p.f, indexStart(p.size, p.count), p.count, packEntryLen, h[:])
	return err != nil || e != nil
}
