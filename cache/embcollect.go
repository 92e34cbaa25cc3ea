package cache

import (
	"bufio"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/autorag/autorag/fingerprint"
)

// Collect bounds the cache. When the bytes stored under the embeddings
// directory (every identity) exceed capBytes, it empties the directories of
// all other identities but those named in keep (the target of an upgrade in
// progress, whose vectors another process may be writing: package upgrade),
// keeping their writer locks (RemoveAll)
// and rewrites this identity's log keeping only the entries for which live
// returns true. Live entries are never dropped, even
// when they alone exceed capBytes (a record found corrupt is dropped: it was
// lost already). evicted counts this identity's entries not carried over.
//
// The rewrite is atomic: a new log and index are written under temporary
// names, fsynced, and renamed over the old ones. Readers that opened the old
// log keep reading it. Collect is a write: it needs the writer lock.
func (c *Embeddings) Collect(live func(h [32]byte) bool, capBytes int64, keep ...string) (evicted int, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, errClosed
	}
	if err := c.flush(); err != nil {
		return 0, err
	}
	total, err := dirBytes(c.root)
	if err != nil {
		return 0, fmt.Errorf("embedding cache: measure: %w", err)
	}
	if total <= capBytes {
		return 0, nil
	}
	if err := c.dropOtherIdentities(keep); err != nil {
		return 0, err
	}
	if c.f == nil && c.index.len() == 0 {
		return 0, nil
	}
	if err := c.startWriter(); err != nil {
		return 0, err
	}
	return c.rewrite(live)
}

// dirBytes sums the sizes of the regular files under dir.
func dirBytes(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				total += fi.Size()
			}
		}
		return nil
	})
	return total, err
}

// dropOtherIdentities empties every directory under the embeddings
// directory except this identity's and those of the identities in keep,
// removing the ones that hold no lock file.
func (c *Embeddings) dropOtherIdentities(keep []string) error {
	ents, err := os.ReadDir(c.root)
	if err != nil {
		return fmt.Errorf("embedding cache: %w", err)
	}
	stay := map[string]bool{filepath.Base(c.dir): true}
	for _, id := range keep {
		stay[dirName(id, 16)] = true
	}
	for _, e := range ents {
		if !e.IsDir() || stay[e.Name()] {
			continue
		}
		// Its writer.lock stays (RemoveAll), and the directory holding it:
		// another process may hold it and write that identity still.
		p := filepath.Join(c.root, e.Name())
		if _, err := RemoveAll(p); err != nil {
			return fmt.Errorf("embedding cache: drop other identity: %w", err)
		}
		_ = os.Remove(p) // fails while a lock file is in it
	}
	return nil
}

// rewrite replaces the log and index with ones holding only live, intact
// records. c.mu must be held and c must be the writer with nothing pending.
func (c *Embeddings) rewrite(live func(h [32]byte) bool) (evicted int, err error) {
	nonce := rand.Uint64()
	logTmp, err := fingerprint.CreateAtomic(c.dir, logName, fingerprint.FilePerm)
	if err != nil {
		return 0, fmt.Errorf("embedding cache: %w", err)
	}
	defer logTmp.Abort()
	bw := bufio.NewWriterSize(logTmp, writeBufSize)
	hdr := logHeader(c.identity, nonce)
	_, _ = bw.Write(hdr)
	off := int64(len(hdr))
	var kept []hashSlot
	w := &window{r: c.f, size: c.end}
	all, err := c.index.all()
	if err != nil {
		return 0, fmt.Errorf("embedding cache: read index: %w", err)
	}
	for _, e := range all {
		n := recordLen(e.dims)
		if !live(e.h) {
			evicted++
			continue
		}
		rec, rerr := w.at(e.off, int(n))
		if rerr != nil || !checkRecord(rec, e.h, e.dims) {
			evicted++
			continue
		}
		_, _ = bw.Write(rec)
		kept = append(kept, hashSlot{e.h, slot{off: off, dims: e.dims}})
		off += n
	}
	if err := bw.Flush(); err != nil {
		return 0, fmt.Errorf("embedding cache: write %s: %w", logTmp.Name(), err)
	}
	return evicted, c.install(logTmp, fullIndex(nonce, off, kept), nonce, off)
}

// install renames a rewritten log into place, writes its index, and
// switches c over to them. A crash between the two renames leaves a new log
// with the old index, whose nonce no longer matches: the next load ignores
// it and scans the log.
func (c *Embeddings) install(logTmp *fingerprint.AtomicFile, idx []byte, nonce uint64, end int64) error {
	logPath, idxPath := filepath.Join(c.dir, logName), filepath.Join(c.dir, idxName)
	if err := logTmp.Commit(logPath); err != nil && !fingerprint.Renamed(err) {
		return fmt.Errorf("embedding cache: install log: %w", err)
	}
	// From here on the old files are replaced: on failure refuse further
	// writes, keep serving from the old log still open.
	fail := func(err error) error {
		c.werr = fmt.Errorf("embedding cache: install: %w", err)
		return c.werr
	}
	if err := fingerprint.WriteFileAtomic(idxPath, idx, fingerprint.FilePerm); err != nil {
		return fail(err)
	}
	f, err := os.OpenFile(logPath, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return fail(err)
	}
	ix, err := os.OpenFile(idxPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		_ = f.Close()
		return fail(err)
	}
	_ = c.f.Close()
	_ = c.idx.Close()
	c.index.base.close()
	c.f, c.idx, c.index, c.nonce, c.tailN = f, ix, newEntryIndex(memRegion(idx[idxHeaderLen:]), 0), nonce, 0
	c.end, c.bufStart, c.dirty = end, end, false
	return nil
}
