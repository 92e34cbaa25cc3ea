package cache

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/autorag/autorag/fingerprint"
)

// touchAfter is how stale an entry's mtime must be before a hit refreshes
// it: eviction order is by mtime, and one second is finer than any eviction
// pass needs, so most hits cost no write at all.
const touchAfter = time.Second

// Queries is the on-disk query result cache: one file per entry under a
// directory per fingerprint. Gets take no lock and never block; Puts
// serialize on a lock file in the cache directory, so any number of
// processes may use one cache at once. See doc.go for the format.
type Queries struct {
	dir      string
	capBytes int64
}

// OpenQueries returns the cache in dir (normally .autorag/cache/query)
// holding at most capBytes of entry files. It touches nothing on disk.
func OpenQueries(dir string, capBytes int64) *Queries {
	return &Queries{dir: dir, capBytes: capBytes}
}

func (q *Queries) fpDir(fp string) string { return filepath.Join(q.dir, dirName(fp, 8)) }

func (q *Queries) entryPath(fp string, key [32]byte) string {
	return filepath.Join(q.fpDir(fp), hex.EncodeToString(key[:])+entryExt)
}

// Get returns the value stored for (fp, key). It reads one file and serves
// it only when its checksum holds and its stored key and fingerprint equal
// the ones asked for; anything else (truncated, corrupt, copied from
// another entry, of another format) is removed and reported as a miss. A
// hit refreshes the entry's mtime, which orders eviction, at most once per
// touchAfter.
func (q *Queries) Get(fp string, key [32]byte) ([]byte, bool) {
	path := q.entryPath(fp, key)
	b, fi, err := readFile(path)
	if err != nil {
		return nil, false
	}
	v, ok := decodeEntry(b, fp, key)
	if !ok {
		removeIfSame(path, fi)
		return nil, false
	}
	if now := time.Now(); now.Sub(fi.ModTime()) >= touchAfter {
		_ = os.Chtimes(path, time.Time{}, now)
	}
	return v, true
}

// readFile reads a whole file with one open, one fstat and one read.
func readFile(path string) ([]byte, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxEntrySize {
		return nil, fi, errors.New("not a cache entry")
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fi, err
	}
	return b, fi, nil
}

// removeIfSame removes path if it is still the file described by fi, so a
// bad entry is not kept, while a good one renamed over it meanwhile is.
func removeIfSame(path string, fi fs.FileInfo) {
	if cur, err := os.Lstat(path); err == nil && os.SameFile(cur, fi) {
		_ = os.Remove(path)
	}
}

// Put stores value for (fp, key), replacing any previous value. The entry
// is written to a temporary file and renamed into place, so a reader sees
// the old file or the new one; it is not fsynced, since a torn entry fails
// its checksum and is never served. An entry larger than the cap is not
// stored. Put keeps the entry files within capBytes (see doc.go for the
// bound and how it is kept cheap).
func (q *Queries) Put(fp string, key [32]byte, value []byte) error {
	data, err := encodeEntry(fp, key, value)
	if err != nil {
		return err
	}
	n := int64(len(data))
	if n > q.capBytes {
		return nil
	}
	unlock, err := q.lock()
	if err != nil {
		return err
	}
	defer unlock()
	uf, err := os.OpenFile(filepath.Join(q.dir, usageName), os.O_RDWR|os.O_CREATE, fingerprint.FilePerm)
	if err != nil {
		return fmt.Errorf("query cache: %w", err)
	}
	defer uf.Close()
	u, ok := readUsage(uf)
	if !ok || u.total+n > q.capBytes || u.sinceScan >= q.capBytes/2 {
		if u, err = q.makeRoom(n); err != nil {
			return err
		}
	}
	replaced, err := writeEntry(q.entryPath(fp, key), data)
	if err != nil {
		return err
	}
	u.total += n - replaced
	u.sinceScan += n
	if _, err := uf.WriteAt(u.encode(), 0); err != nil {
		return fmt.Errorf("query cache: write usage: %w", err)
	}
	return nil
}

func readUsage(f *os.File) (usage, bool) {
	b := make([]byte, usageLen+1)
	n, _ := f.ReadAt(b, 0)
	return decodeUsage(b[:n])
}

// writeEntry writes data to path through fingerprint.ReplaceFile (no
// fsync: entries are verified when read, so a power loss costs a miss),
// creating the directory when needed, and returns the size of the file it
// replaced (0 if none). The cache lock must be held.
func writeEntry(path string, data []byte) (replaced int64, err error) {
	if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode().IsRegular() {
		replaced = fi.Size()
	}
	err = fingerprint.ReplaceFile(path, data, fingerprint.FilePerm)
	if errors.Is(err, fs.ErrNotExist) {
		if err = fingerprint.MkdirAll(filepath.Dir(path)); err == nil {
			err = fingerprint.ReplaceFile(path, data, fingerprint.FilePerm)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("query cache: write entry: %w", err)
	}
	return replaced, nil
}

// DropOtherFingerprints removes the entries of every fingerprint but fp;
// call it after a commit. Entries Put for an old fingerprint by a query
// still running are harmless: never served for fp, evicted like any other.
func (q *Queries) DropOtherFingerprints(fp string) error {
	return q.removeDirs(filepath.Base(q.fpDir(fp)))
}

// Clear removes every entry. The lock file stays: removing a lock file
// another process may hold would let a third take it too.
func (q *Queries) Clear() error { return q.removeDirs("") }

// removeDirs removes every fingerprint directory except keep, and resets
// the usage account so the next Put measures afresh.
func (q *Queries) removeDirs(keep string) error {
	if _, err := os.Stat(q.dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := q.lock()
	if err != nil {
		return err
	}
	defer unlock()
	ents, err := os.ReadDir(q.dir)
	if err != nil {
		return fmt.Errorf("query cache: %w", err)
	}
	for _, e := range ents {
		if e.IsDir() && e.Name() != keep {
			if err := os.RemoveAll(filepath.Join(q.dir, e.Name())); err != nil {
				return fmt.Errorf("query cache: %w", err)
			}
		}
	}
	if err := os.Remove(filepath.Join(q.dir, usageName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("query cache: %w", err)
	}
	return nil
}
