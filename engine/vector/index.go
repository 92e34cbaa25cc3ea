package vector

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Index is an open, read-only vector index of one generation. Its methods are
// safe for concurrent use; Search after Close returns nil.
type Index struct {
	mu     sync.RWMutex // Search holds it shared; Close exclusive, so no scan touches an unmapped segment
	closed bool
	dims   int
	man    *manifest
	segs   []*segment
	live   int
}

// Open opens the vector index in dir read-only, memory-mapping its segments.
// It checks the manifest checksum, every segment's magic, version, dims,
// layout and metadata checksum (header and IDs), but not the vector payload:
// Verify does that. A missing dir yields an error wrapping fs.ErrNotExist.
func Open(dir string, dims int) (*Index, error) {
	if dims <= 0 {
		return nil, fmt.Errorf("open vector index: dims %d", dims)
	}
	if !hostLittleEndian() {
		return nil, errors.New("open vector index: big-endian hosts are not supported")
	}
	m, err := readManifest(dir, dims)
	if err != nil {
		return nil, fmt.Errorf("open vector index %s: %w", dir, err)
	}
	ix := &Index{dims: dims, man: m}
	for _, sm := range m.segs {
		s, err := openSegment(dir, sm, dims)
		if err != nil {
			ix.Close()
			return nil, fmt.Errorf("open vector index %s: %w", dir, err)
		}
		ix.segs = append(ix.segs, s)
		ix.live += sm.live()
	}
	if ix.autoScan() != ScanExact {
		for _, s := range ix.segs {
			adviseRandom(s)
		}
	}
	return ix, nil
}

// Len returns the number of live vectors.
func (ix *Index) Len() int { return ix.live }

// Dims returns the vector dimensionality.
func (ix *Index) Dims() int { return ix.dims }

// Stats describes the open index.
func (ix *Index) Stats() Stats { return ix.man.stats() }

// Verify recomputes the checksum of every segment's vector payload, reading
// all of it. Open checks only the small metadata.
func (ix *Index) Verify() error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return errors.New("verify vector index: closed")
	}
	for _, s := range ix.segs {
		if err := s.verifyPayload(); err != nil {
			return fmt.Errorf("verify vector index: %w", err)
		}
	}
	return nil
}

// Close unmaps the segments. It waits for running searches.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return nil
	}
	ix.closed = true
	var errs []error
	for _, s := range ix.segs {
		errs = append(errs, s.close())
	}
	return errors.Join(errs...)
}

// Vector returns a copy of the live vector stored for id, searching the
// newest segment first; false when there is none (or the index is closed).
func (ix *Index) Vector(id string) ([]float32, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return nil, false
	}
	for i := len(ix.segs) - 1; i >= 0; i-- {
		s := ix.segs[i]
		r, ok := s.lookup(id)
		if !ok {
			continue
		}
		if _, dead := slices.BinarySearch(s.meta.tombs, uint32(r)); dead {
			continue
		}
		return slices.Clone(s.vec(r)), true
	}
	return nil, false
}
