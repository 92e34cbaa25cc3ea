// How an Embeddings becomes the writer of its log: the writer lock, the
// log loaded again or reused from Open, a torn tail cut off.

package cache

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/gofrs/flock"

	"github.com/autorag/autorag/fingerprint"
)

// startWriter makes c the writer: it takes the writer lock, reopens the log
// for appending, reloads it (another writer may have appended since Open),
// cuts off a torn tail, and rewrites the index if it does not exactly cover
// the log. c.mu must be held.
func (c *Embeddings) startWriter() (err error) {
	switch {
	case c.closed:
		return errClosed
	case c.werr != nil:
		return c.werr
	case c.writing:
		return nil
	}
	if err := fingerprint.MkdirAll(c.dir); err != nil {
		return fmt.Errorf("embedding cache: %w", err)
	}
	lk := flock.New(filepath.Join(c.dir, writerLockName), flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(fingerprint.FilePerm))
	ok, err := lk.TryLock()
	if err != nil {
		return fmt.Errorf("embedding cache: lock: %w", err)
	}
	if !ok {
		return ErrWriterBusy
	}
	var f, idx *os.File
	var st *logState
	defer func() {
		if err != nil {
			if st != nil && st.index.base != c.index.base {
				st.index.base.close()
			}
			for _, x := range []*os.File{f, idx} {
				if x != nil {
					_ = x.Close()
				}
			}
			_ = lk.Unlock()
			err = fmt.Errorf("embedding cache: start writing %s: %w", c.dir, err)
		}
	}()
	removeTemps(c.dir)
	f, err = os.OpenFile(filepath.Join(c.dir, logName), os.O_RDWR|os.O_CREATE|os.O_APPEND, fingerprint.FilePerm)
	if err != nil {
		return err
	}
	st, err = c.loadForWrite(f)
	if err == nil {
		err = c.repair(f, st)
	}
	if err != nil {
		return err
	}
	idx, err = os.OpenFile(filepath.Join(c.dir, idxName), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if c.f != nil {
		_ = c.f.Close()
	}
	if c.index.base != st.index.base {
		c.index.base.close()
	}
	c.f, c.idx, c.lock, c.index, c.nonce, c.tailN = f, idx, lk, st.index, st.nonce, st.tailN
	c.end, c.bufStart, c.writing, c.newFiles, c.dirty = st.validEnd, st.validEnd, true, true, true
	c.opened = nil
	return nil
}

// loadForWrite returns the state of the log open as f (read-write, under
// the writer lock): what Open loaded, with the entries Get has forgotten
// since, when neither the log nor the index has changed since Open (same
// files, sizes and modification times: a writer only appends to them,
// truncates a torn tail or replaces the index by rename); else the log
// loaded again, as another writer may have appended meanwhile.
func (c *Embeddings) loadForWrite(f *os.File) (*logState, error) {
	if o := c.opened; o != nil && o.log.same(statOf(f)) && o.idx.same(statPath(filepath.Join(c.dir, idxName))) {
		st := *o.st
		st.index = c.index
		return &st, nil
	}
	return loadLog(f, c.dir, c.identity)
}

// repair brings the log open as f (read-write) and its index, as loaded
// into st, to a state a writer can append to, and updates st to match.
func (c *Embeddings) repair(f *os.File, st *logState) error {
	switch {
	case !st.headerOK:
		nonce := rand.Uint64()
		hdr := logHeader(c.identity, nonce)
		if err := f.Truncate(0); err != nil {
			return err
		}
		if _, err := f.Write(hdr); err != nil {
			return err
		}
		n := int64(len(hdr))
		*st = logState{headerOK: true, nonce: nonce, hdrLen: n, size: n, validEnd: n, index: newEntryIndex(nil, 0)}
	case st.size > st.validEnd:
		if err := f.Truncate(st.validEnd); err != nil {
			return err
		}
	}
	if !st.idxClean {
		entries, err := st.index.all()
		if err != nil {
			return err
		}
		data := fullIndex(st.nonce, st.validEnd, entries)
		if err := fingerprint.WriteFileAtomic(filepath.Join(c.dir, idxName), data, fingerprint.FilePerm); err != nil {
			return err
		}
		st.index.base.close()
		st.index, st.tailN = newEntryIndex(memRegion(data[idxHeaderLen:]), 0), 0
	}
	return nil
}

// removeTemps removes temporary files a crashed writer left in dir. Only
// the writer (holding the writer lock) creates them, so none is in use.
func removeTemps(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), fingerprint.TempPrefix) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
