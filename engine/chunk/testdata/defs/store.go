// Package store keeps documents on disk.
package store

import (
	"errors"
	"os"
)

// Errors of the store.
var (
	ErrMissing = errors.New("missing")
	ErrClosed  = errors.New("closed")
)

// Limit is the largest document.
const Limit = 1 << 20

// Store keeps documents in a directory.
type Store struct {
	dir    string
	closed bool
}

// Open opens the store at dir.
func Open(dir string) (*Store, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	return &Store{dir: dir}, nil
}

// Get returns the document named id, or ErrMissing.
func (s *Store) Get(id string) ([]byte, error) {
	if s.closed {
		return nil, ErrClosed
	}
	b, err := os.ReadFile(s.dir + "/" + id)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrMissing
	}
	return b, err
}

// Put stores a document.
func (s *Store) Put(id string, b []byte) error {
	if len(b) > Limit {
		return errors.New("too large")
	}
	return os.WriteFile(s.dir+"/"+id, b, 0o600)
}

// Close closes the store.
func (s *Store) Close() error { s.closed = true; return nil }
