package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/autorag/autorag/fingerprint"
)

// Store is the content-addressed mirror of normalized texts. Object h holds
// Doc.Encode() bytes whose BLAKE3-256 is h. Objects live in append-only pack
// files directly in the store directory (format: pack.go): every Store
// appends the objects it is given to one pack of its own, a temporary file
// that Sync fsyncs and publishes under a final name. A pack is read only
// once published, so a crash loses at most the objects Put since the last
// Sync; nothing depends on them, because Get verifies the hash and the
// engine re-parses a source whose object is missing or damaged.
//
// A Store is safe for concurrent use by goroutines. Only one process may
// write a store directory at a time (callers hold the refresh lock); Collect
// relies on it. Close releases the open files.
type Store struct {
	dir      string
	readOnly bool // Put only computes hashes (OpenStoreReadOnly)

	// wmu serializes writers: Put, Sync, Collect, Close. It guards sess
	// and newDirs, and is taken before mu.
	wmu     sync.Mutex
	sess    *packWriter // this session's pack; nil until the first Put after a Sync
	newDirs []string    // directories to fsync at the next Sync (parents of created ones)

	// mu guards the published packs, loaded lazily. Readers hold it for
	// reading across their preads so that Collect and Close do not close a
	// file under them.
	mu      sync.RWMutex
	loaded  bool
	packs   []*pack
	loadErr error // why the store directory could not be listed
	untidy  bool  // the listing found what only Collect removes (CollectDue)
}

// OpenStore returns the store rooted at dir. Nothing is read until the first
// lookup and nothing written until the first Put.
func OpenStore(dir string) *Store {
	return &Store{dir: dir}
}

// OpenStoreReadOnly returns the store rooted at dir for a caller that must
// not write (status): lookups see the published packs, and Put returns the
// TextHash it would store without storing anything.
func OpenStoreReadOnly(dir string) *Store {
	return &Store{dir: dir, readOnly: true}
}

// Has reports whether object h exists (it does not verify its content).
func (s *Store) Has(h Hash) bool {
	// The session first: Sync moves its objects into the packs, never back.
	s.wmu.Lock()
	_, ok := s.sessionEntry(h)
	s.wmu.Unlock()
	return ok || s.packed(h)
}

// sessionEntry looks h up in the session's pack. The caller holds wmu.
func (s *Store) sessionEntry(h Hash) (packEntry, bool) {
	if s.sess == nil {
		return packEntry{}, false
	}
	return s.sess.lookup(h)
}

// packed reports whether a published pack holds h.
func (s *Store) packed(h Hash) bool {
	s.rlockPacks()
	defer s.mu.RUnlock()
	for _, p := range s.packs {
		if _, ok := p.find(h); ok {
			return true
		}
	}
	return false
}

// Put stores d and returns its TextHash. It is a no-op when the object
// already exists. The object is readable at once but durable only after
// Sync.
func (s *Store) Put(d *Doc) (Hash, error) {
	b := d.Encode()
	h := HashBytes(b)
	if s.readOnly {
		return h, nil
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, ok := s.sessionEntry(h); ok || s.packed(h) {
		return h, nil
	}
	if err := s.appendLocked(h, b); err != nil {
		return h, fmt.Errorf("put object %s: %w", h, err)
	}
	return h, nil
}

// appendLocked appends object b to the session's pack, starting one if
// needed. A failed append discards the session's pack: its objects are
// then missing, which callers already handle. The caller holds wmu.
func (s *Store) appendLocked(h Hash, b []byte) error {
	if s.sess == nil {
		if err := s.mkdirLocked(); err != nil {
			return err
		}
		w, err := newPackWriter(s.dir)
		if err != nil {
			return err
		}
		s.sess = w
	}
	if err := s.sess.add(h, b); err != nil {
		_ = s.sess.abort()
		s.sess = nil
		return err
	}
	return nil
}

// mkdirLocked creates the store directory and its missing parents,
// remembering which directories Sync must fsync for them to survive a
// crash. The caller holds wmu.
func (s *Store) mkdirLocked() error {
	if fi, err := os.Stat(s.dir); err == nil && fi.IsDir() {
		return nil
	}
	var created []string
	for d := s.dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) || filepath.Dir(d) == d {
			break
		}
		created = append(created, d)
	}
	if err := fingerprint.MkdirAll(s.dir); err != nil {
		return fmt.Errorf("create mirror store: %w", err)
	}
	for _, d := range created { // deepest first
		s.newDirs = append(s.newDirs, filepath.Dir(d))
	}
	return nil
}

// Get reads object h and verifies that its content hashes to h. A missing
// object yields an error wrapping fs.ErrNotExist; a damaged one an error
// wrapping ErrCorrupt.
func (s *Store) Get(h Hash) (*Doc, error) {
	b, err := s.read(h)
	if err != nil {
		return nil, fmt.Errorf("get object %s: %w", h, err)
	}
	d, err := DecodeDoc(b)
	if err != nil {
		return nil, fmt.Errorf("get object %s: %w", h, err)
	}
	return d, nil
}

// read returns the verified bytes of object h, from the session's pack or
// else from the first published pack holding an intact copy.
func (s *Store) read(h Hash) ([]byte, error) {
	if b, ok, err := s.readSession(h); ok {
		return b, err
	}
	s.rlockPacks()
	defer s.mu.RUnlock()
	var firstErr error
	for _, p := range s.packs {
		e, ok := p.find(h)
		if !ok {
			continue
		}
		b, err := readRecord(p.f, e, p.plain)
		if err == nil {
			return b, nil
		}
		if firstErr == nil {
			firstErr = fmt.Errorf("pack %s: %w", p.name, err)
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if s.loadErr != nil {
		return nil, errors.Join(fs.ErrNotExist, s.loadErr)
	}
	return nil, fs.ErrNotExist
}

// readSession reads h from the session's pack; ok is false when the session
// does not hold it.
func (s *Store) readSession(h Hash) (b []byte, ok bool, err error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	e, ok := s.sessionEntry(h)
	if !ok {
		return nil, false, nil
	}
	b, err = s.sess.read(e)
	return b, true, err
}

// rlockPacks read-locks mu with the published packs loaded. The caller
// must RUnlock.
func (s *Store) rlockPacks() {
	for {
		s.mu.RLock()
		if s.loaded {
			return
		}
		s.mu.RUnlock()
		s.mu.Lock()
		if !s.loaded {
			s.loadLocked()
		}
		s.mu.Unlock()
	}
}

// loadLocked opens every published pack and reads its index. Packs that
// cannot be opened or fail their checks are skipped (Collect removes the
// damaged ones). The caller holds mu.
func (s *Store) loadLocked() {
	s.loaded = true
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.loadErr = fmt.Errorf("list mirror store: %w", err)
		}
		return
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, tempPrefix) || isFanout(name) {
			s.untidy = true
		}
		if !isPackName(name) || !e.Type().IsRegular() {
			continue
		}
		if p, err := openPack(filepath.Join(s.dir, name), name); err == nil {
			s.packs = append(s.packs, p)
		} else {
			s.untidy = true
		}
	}
}

// Sync publishes the session's pack, if it holds any object, so that the
// objects Put so far survive a crash and are seen by later OpenStores.
// Later Puts start a new pack.
func (s *Store) Sync() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := s.syncLocked(); err != nil {
		return fmt.Errorf("sync mirror store: %w", err)
	}
	return nil
}

// syncLocked publishes the session's pack and fsyncs the directories the
// store created. On failure before the pack is named its objects are lost.
// The caller holds wmu.
func (s *Store) syncLocked() error {
	if s.sess == nil {
		return nil
	}
	w := s.sess
	s.sess = nil
	p, err := w.finish(s.dir)
	if p != nil {
		s.addPack(p)
	}
	if err != nil {
		return err
	}
	for len(s.newDirs) > 0 {
		if err := fingerprint.SyncDir(s.newDirs[0]); err != nil {
			return err
		}
		s.newDirs = s.newDirs[1:]
	}
	return nil
}

// addPack makes a freshly published pack readable. If the packs were never
// loaded, loading will find it by name.
func (s *Store) addPack(p *pack) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded {
		_ = p.f.Close()
		return
	}
	s.packs = append(s.packs, p)
}

// Close releases the store's open files. Objects Put since the last Sync
// are discarded (their temporary pack is removed). Close may be called
// more than once; a Store used after Close opens its packs again.
func (s *Store) Close() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	var errs []error
	if s.sess != nil {
		errs = append(errs, s.sess.abort())
		s.sess = nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.packs {
		if err := p.f.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close pack %s: %w", p.name, err))
		}
	}
	s.packs, s.loaded, s.loadErr = nil, false, nil
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close mirror store: %w", err)
	}
	return nil
}
