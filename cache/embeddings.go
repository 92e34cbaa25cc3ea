package cache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/gofrs/flock"

	"github.com/autorag/autorag/fingerprint"
)

// ErrWriterBusy is returned by the first Put (or Collect) of an Embeddings
// when another Embeddings, in this process or another, is writing the same
// identity's log. The engine writes only under the refresh lock, so seeing
// it means a caller broke that rule; nothing was written.
var ErrWriterBusy = errors.New("embedding cache: another writer holds it")

var errClosed = errors.New("embedding cache: closed")

// compactMin is the fewest entries in the index tail that make Flush
// rewrite the index sorted; beyond it, 1/compactShare of the sorted region.
// Every Open decodes the tail into a map (the sorted region it leaves in
// the file), so the tail is kept short: at 300,000 entries a rewrite (14 MB)
// comes every 4,700 entries appended, about 1,500 one-file edits, instead of
// a tail of up to 75,000 entries decoded by every refresh.
const (
	compactMin   = 4096
	compactShare = 64
)

// writeBufSize is how many bytes of new records Put buffers before writing
// them to the log (without fsync; Flush fsyncs).
const writeBufSize = 1 << 20

// Embeddings caches embedding vectors of one embedder identity, keyed by the
// BLAKE3 hash of the embedded text. Any number of processes may open it and
// Get; Put, Flush and Collect write, and only one writer at a time is
// allowed (a second gets ErrWriterBusy). See doc.go for the format.
//
// An Embeddings is safe for concurrent use by multiple goroutines.
type Embeddings struct {
	root     string // the embeddings directory, holding every identity
	dir      string // this identity's directory
	identity string

	mu     sync.RWMutex
	f      *os.File // the log; opened read-only, reopened read-write by the writer
	index  entryIndex
	closed bool

	// opened is what Open loaded and the files it loaded it from, so
	// that startWriter need not load both again when no writer has
	// touched them since; nil when there was no log.
	opened *openedState

	// Writer state, set up by the first write (startWriter).
	writing  bool
	lock     *flock.Flock
	idx      *os.File
	nonce    uint64
	end      int64  // log offset where the next record goes
	buf      []byte // records not yet written to the log; buf[0] is at bufStart
	bufStart int64
	pendIdx  []byte // index entries of records not yet flushed
	tailN    int    // entries in the index file's unsorted tail
	dirty    bool   // something was written since the last fsync
	newFiles bool   // files or directories were created: fsync the directories too
	werr     error  // a failed write leaves the log's tail unknown: refuse more
}

// OpenEmbeddings opens the cache of identity under dir (normally
// .autorag/cache/embeddings). It reads the small index file and, at most,
// the headers of records the index does not cover; vector payloads are read
// only by Get. A missing cache is an empty one, and nothing is created until
// the first Put. A damaged log or index loses what it no longer proves, never
// more (see doc.go); only I/O errors are returned.
func OpenEmbeddings(dir, identity string) (*Embeddings, error) {
	if len(identity) > maxIdentity {
		return nil, fmt.Errorf("open embedding cache: identity longer than %d bytes", maxIdentity)
	}
	c := &Embeddings{
		root:     dir,
		dir:      filepath.Join(dir, dirName(identity, 16)),
		identity: identity,
		index:    newEntryIndex(nil, 0),
	}
	f, err := os.Open(filepath.Join(c.dir, logName))
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open embedding cache: %w", err)
	}
	opened := &openedState{log: statOf(f), idx: statPath(filepath.Join(c.dir, idxName))}
	st, err := loadLog(f, c.dir, identity)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("load embedding cache %s: %w", c.dir, err)
	}
	opened.st = st
	c.f, c.index, c.opened = f, st.index, opened
	return c, nil
}

// Len returns the number of vectors the cache holds (as far as its index
// knows: a record found corrupt by Get is dropped then).
func (c *Embeddings) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.index.len()
}

// Get returns the vector stored for h. The record is verified (hash, length,
// checksum) on every read; a record that fails is forgotten and reported as
// missing, so the caller embeds the text again and Puts it anew.
func (c *Embeddings) Get(h [32]byte) ([]float32, bool) {
	c.mu.RLock()
	s, found := c.index.lookup(h)
	var v []float32
	ok := false
	if found {
		v, ok = c.read(h, s)
	}
	c.mu.RUnlock()
	if found && !ok {
		c.forget(h, s)
	}
	return v, ok
}

// read reads and verifies the record at s; c.mu must be held.
func (c *Embeddings) read(h [32]byte, s slot) ([]float32, bool) {
	n := recordLen(s.dims)
	if c.writing && s.off >= c.bufStart {
		at := s.off - c.bufStart
		if at+n > int64(len(c.buf)) {
			return nil, false
		}
		return decodeRecord(c.buf[at:at+n], h, s.dims)
	}
	if c.f == nil {
		return nil, false
	}
	b := make([]byte, n)
	if _, err := c.f.ReadAt(b, s.off); err != nil {
		return nil, false
	}
	return decodeRecord(b, h, s.dims)
}

// forget drops h if it still points at s.
func (c *Embeddings) forget(h [32]byte, s slot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.index.forget(h, s)
}

// Put stores v for h. It is buffered: Flush makes it durable. Putting a hash
// the cache already holds does nothing.
func (c *Embeddings) Put(h [32]byte, v []float32) error {
	if len(v) == 0 || len(v) > maxDims {
		return fmt.Errorf("embedding cache: vector of %d dimensions (want 1..%d)", len(v), maxDims)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.index.lookup(h); ok {
		return nil
	}
	if err := c.startWriter(); err != nil {
		return err
	}
	s := slot{off: c.end, dims: uint32(len(v))}
	c.buf = appendRecord(c.buf, h, v)
	c.pendIdx = appendIdxEntry(c.pendIdx, h, s)
	c.index.add(h, s)
	c.end += recordLen(s.dims)
	c.dirty = true
	if len(c.buf) >= writeBufSize {
		return c.writeBuf()
	}
	return nil
}

// writeBuf appends the buffered records to the log (no fsync).
func (c *Embeddings) writeBuf() error {
	if len(c.buf) == 0 {
		return nil
	}
	if _, err := c.f.Write(c.buf); err != nil {
		c.werr = fmt.Errorf("embedding cache: write log: %w", err)
		return c.werr
	}
	c.bufStart += int64(len(c.buf))
	c.buf = c.buf[:0]
	return nil
}

// Flush makes every vector Put so far durable: it writes and fsyncs the log,
// then appends and fsyncs their index entries. A crash before Flush loses
// only what was Put since the previous Flush.
func (c *Embeddings) Flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.flush()
}

func (c *Embeddings) flush() error {
	if c.werr != nil {
		return c.werr
	}
	if !c.writing || !c.dirty {
		return nil
	}
	if err := c.writeBuf(); err != nil {
		return err
	}
	if err := c.f.Sync(); err != nil {
		c.werr = fmt.Errorf("embedding cache: sync log: %w", err)
		return c.werr
	}
	if _, err := c.idx.Write(c.pendIdx); err != nil {
		c.werr = fmt.Errorf("embedding cache: write index: %w", err)
		return c.werr
	}
	if err := c.idx.Sync(); err != nil {
		c.werr = fmt.Errorf("embedding cache: sync index: %w", err)
		return c.werr
	}
	c.tailN += len(c.pendIdx) / idxEntryLen
	c.pendIdx = c.pendIdx[:0]
	if c.tailN > max(compactMin, c.index.base.len()/compactShare) {
		if err := c.compactIndex(); err != nil {
			return err
		}
	}
	if c.newFiles {
		for _, d := range []string{c.dir, c.root} {
			if err := fingerprint.SyncDir(d); err != nil {
				return fmt.Errorf("embedding cache: %w", err)
			}
		}
		c.newFiles = false
	}
	c.dirty = false
	return nil
}

// Close flushes and releases the files and the writer lock.
func (c *Embeddings) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	return c.release(c.flush())
}

// Discard closes c without writing what is buffered and, when c is the
// writer, first removes the files of its identity's directory but the
// writer lock (RemoveAll), which it holds meanwhile: what a writer wrote
// into a cache that was cleared under it (index reset during an upgrade)
// is nobody's, and must not outlive the reset. Readers that opened the
// files keep reading them.
func (c *Embeddings) Discard() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.buf, c.pendIdx, c.dirty = c.buf[:0], c.pendIdx[:0], false
	var err error
	if c.writing {
		if _, rerr := RemoveAll(c.dir); rerr != nil {
			err = fmt.Errorf("embedding cache: discard: %w", rerr)
		}
	}
	return c.release(err)
}

// release closes c's files and lets its writer lock go, returning err or
// the first error closing. c.mu must be held.
func (c *Embeddings) release(err error) error {
	c.closed = true
	for _, f := range []*os.File{c.f, c.idx} {
		if f != nil {
			if cerr := f.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("embedding cache: close: %w", cerr)
			}
		}
	}
	c.f, c.idx = nil, nil
	c.index.base.close()
	if c.lock != nil {
		_ = c.lock.Unlock()
		c.lock = nil
	}
	c.writing = false
	return err
}

// compactIndex rewrites the index with every entry in its sorted region,
// once enough have been appended to its tail (which every opening process
// loads into a map). Log data must be durable first.
func (c *Embeddings) compactIndex() error {
	entries, err := c.index.all()
	if err != nil {
		return fmt.Errorf("embedding cache: compact index: %w", err)
	}
	data := fullIndex(c.nonce, c.end, entries)
	path := filepath.Join(c.dir, idxName)
	if err := fingerprint.WriteFileAtomic(path, data, fingerprint.FilePerm); err != nil {
		return fmt.Errorf("embedding cache: compact index: %w", err)
	}
	idx, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		c.werr = fmt.Errorf("embedding cache: reopen index: %w", err)
		return c.werr
	}
	_ = c.idx.Close()
	c.index.base.close()
	c.idx, c.index, c.tailN = idx, newEntryIndex(memRegion(data[idxHeaderLen:]), 0), 0
	return nil
}
