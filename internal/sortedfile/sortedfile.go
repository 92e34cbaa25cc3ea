// Package sortedfile searches, in place, a region of a file that holds
// fixed-size records sorted by a key at their start: the sorted region of
// the embedding cache's vectors.idx and the index of a mirror pack. It
// reads only the records a binary search probes, so opening such a file
// need not read its region at all.
package sortedfile

import (
	"bytes"
	"errors"
	"io"
)

// Window is the span of records Search reads in one pread once its binary
// search has narrowed to it (about 4 KB of the callers' 48-byte records):
// the last half-dozen probes cost one read instead of six.
const Window = 85

// ErrShort reports a read that ended before the record did.
var ErrShort = errors.New("sortedfile: short read")

// Search returns the record whose first len(key) bytes are key among the n
// records of size bytes at off in r, found by the binary search sort.Search
// does over them, or nil when there is none. Each probe is one pread until
// the search has narrowed to Window records, which are then read at once.
// The record returned is the caller's (a copy). A read that fails or comes
// up short ends the search with its error (ErrShort for a short read).
func Search(r io.ReaderAt, off int64, n, size int, key []byte) ([]byte, error) {
	s := search{r: r, off: off, size: size}
	i, j := 0, n
	for i < j {
		if s.win == nil && j-i <= Window {
			if err := s.readWindow(i, j); err != nil {
				return nil, err
			}
		}
		m := int(uint(i+j) >> 1)
		e, err := s.record(m)
		if err != nil {
			return nil, err
		}
		if bytes.Compare(e[:len(key)], key) < 0 {
			i = m + 1
		} else {
			j = m
		}
	}
	if i == n {
		return nil, nil
	}
	e, err := s.record(i)
	if err != nil || !bytes.Equal(e[:len(key)], key) {
		return nil, err
	}
	return bytes.Clone(e), nil
}

// search is one Search's reads: the window once read, and a buffer for
// the probes before it.
type search struct {
	r     io.ReaderAt
	off   int64
	size  int
	probe []byte
	win   []byte
	winLo int
}

func (s *search) readWindow(i, j int) error {
	s.win = make([]byte, (j-i)*s.size)
	s.winLo = i
	return readAt(s.r, s.win, s.off+int64(i)*int64(s.size))
}

// record returns record k, from the window when it holds it.
func (s *search) record(k int) ([]byte, error) {
	if k >= s.winLo && (k-s.winLo)*s.size < len(s.win) {
		return s.win[(k-s.winLo)*s.size:][:s.size], nil
	}
	if s.probe == nil {
		s.probe = make([]byte, s.size)
	}
	return s.probe, readAt(s.r, s.probe, s.off+int64(k)*int64(s.size))
}

// readAt reads len(b) bytes at off; a short read is ErrShort.
func readAt(r io.ReaderAt, b []byte, off int64) error {
	n, err := r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return ErrShort
	}
	return err
}
