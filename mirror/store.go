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

	"github.com/autorag/autorag/fingerprint"
)

// Store is the content-addressed mirror of normalized texts. Object h lives
// at <dir>/<first two hex digits of h>/<remaining 62 hex digits> and holds
// Doc.Encode() bytes whose BLAKE3-256 is h. Objects are immutable once named:
// each is written to a temp file in its final directory and renamed into
// place. Object contents are not fsynced one by one (on a first refresh of
// thousands of files that cost most of the refresh): nothing depends on an
// object surviving a crash, because Get verifies the hash and the engine
// re-parses the source when an object is missing or torn. Directory fsyncs
// are batched: Sync makes every rename since the previous Sync durable. A
// Store is safe for concurrent use.
type Store struct {
	dir string

	mu    sync.Mutex
	dirty map[string]bool // directories with renames or creations not yet fsynced
}

// OpenStore returns the store rooted at dir. Nothing is touched on disk until
// the first Put.
func OpenStore(dir string) *Store {
	return &Store{dir: dir, dirty: make(map[string]bool)}
}

// Dir returns the directory the store lives in.
func (s *Store) Dir() string { return s.dir }

// objectPath returns where object h lives.
func (s *Store) objectPath(h Hash) string {
	x := h.String()
	return filepath.Join(s.dir, x[:2], x[2:])
}

// Has reports whether object h exists (it does not verify its content).
func (s *Store) Has(h Hash) bool {
	fi, err := os.Stat(s.objectPath(h))
	return err == nil && fi.Mode().IsRegular()
}

// Put stores d and returns its TextHash. It is a no-op when the object
// already exists.
func (s *Store) Put(d *Doc) (Hash, error) {
	b := d.Encode()
	h := HashBytes(b)
	if s.Has(h) {
		return h, nil
	}
	p := s.objectPath(h)
	sub := filepath.Dir(p)
	if err := s.mkdir(sub); err != nil {
		return h, fmt.Errorf("put object %s: %w", h, err)
	}
	if err := writeObject(sub, p, b); err != nil {
		return h, fmt.Errorf("put object %s: %w", h, err)
	}
	s.markDirty(sub)
	return h, nil
}

// mkdir creates the fan-out directory sub (and the store directory) if
// needed, remembering which parents must be fsynced.
func (s *Store) mkdir(sub string) error {
	if fi, err := os.Stat(sub); err == nil && fi.IsDir() {
		return nil
	}
	if _, err := os.Stat(s.dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(s.dir, 0o755); err != nil {
			return err
		}
		s.markDirty(filepath.Dir(s.dir))
	}
	if err := os.Mkdir(sub, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	s.markDirty(s.dir)
	return nil
}

func (s *Store) markDirty(dir string) {
	s.mu.Lock()
	s.dirty[dir] = true
	s.mu.Unlock()
}

// Get reads object h and verifies that its content hashes to h. A missing
// object yields an error wrapping fs.ErrNotExist; a damaged one an error
// wrapping ErrCorrupt.
func (s *Store) Get(h Hash) (*Doc, error) {
	b, err := os.ReadFile(s.objectPath(h))
	if err != nil {
		return nil, fmt.Errorf("get object %s: %w", h, err)
	}
	if HashBytes(b) != h {
		return nil, fmt.Errorf("get object %s: content hash mismatch: %w", h, ErrCorrupt)
	}
	d, err := DecodeDoc(b)
	if err != nil {
		return nil, fmt.Errorf("get object %s: %w", h, err)
	}
	return d, nil
}

// Sync fsyncs every directory written since the previous Sync, deepest
// first, so that the names of the objects Put so far survive a crash
// (their contents are verified on Get, not fsynced).
func (s *Store) Sync() error {
	s.mu.Lock()
	dirs := make([]string, 0, len(s.dirty))
	for d := range s.dirty {
		dirs = append(dirs, d)
	}
	s.mu.Unlock()
	slices.SortFunc(dirs, func(a, b string) int { return len(b) - len(a) })
	for _, d := range dirs {
		if err := fingerprint.SyncDir(d); err != nil {
			return fmt.Errorf("sync mirror store: %w", err)
		}
		s.mu.Lock()
		delete(s.dirty, d)
		s.mu.Unlock()
	}
	return nil
}

// GC removes every object not in keep, and every stray temp file or
// unrecognized name in the fan-out directories. The caller must hold the
// refresh lock: a concurrent Put's temp file would be removed too. Empty
// fan-out directories are removed as well.
func (s *Store) GC(keep map[Hash]bool) (removed int, err error) {
	subs, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("gc mirror store: %w", err)
	}
	for _, sub := range subs {
		n, err := s.gcSub(sub, keep)
		removed += n
		if err != nil {
			return removed, fmt.Errorf("gc mirror store: %w", err)
		}
	}
	return removed, nil
}

// gcSub collects one entry of the store directory.
func (s *Store) gcSub(sub fs.DirEntry, keep map[Hash]bool) (int, error) {
	p := filepath.Join(s.dir, sub.Name())
	if !sub.IsDir() {
		if strings.HasPrefix(sub.Name(), tempPrefix) {
			return 1, os.Remove(p)
		}
		return 0, nil
	}
	if !isFanout(sub.Name()) {
		return 0, nil
	}
	names, err := os.ReadDir(p)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, e := range names {
		if h, ok := parseHash(sub.Name() + e.Name()); ok && keep[h] && e.Type().IsRegular() {
			continue
		}
		if err := os.RemoveAll(filepath.Join(p, e.Name())); err != nil {
			return removed, err
		}
		removed++
	}
	if removed == len(names) {
		_ = os.Remove(p) // best effort; Put recreates it when needed
	}
	return removed, nil
}

// isFanout reports whether name is a fan-out directory name (two lowercase
// hex digits); GC leaves anything else alone.
func isFanout(name string) bool {
	isHex := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }
	return len(name) == 2 && isHex(name[0]) && isHex(name[1])
}

// Delete removes the objects hs, ignoring those already gone. It is the
// cheap collection after an incremental refresh: the caller names the texts
// that left the manifest instead of listing the whole store.
func (s *Store) Delete(hs []Hash) error {
	for _, h := range hs {
		if err := os.Remove(s.objectPath(h)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("delete object %s: %w", h, err)
		}
	}
	return nil
}
