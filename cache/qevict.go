package cache

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/autorag/autorag/fingerprint"
)

// tempPattern names temporary entry files; readers never open them and the
// next scan removes any left by a crash.
const tempPattern = fingerprint.TempPrefix + "*"

// lockWait bounds how long Put waits for the cache lock. Holders only do
// bounded work (one write, at worst one scan), so waiting longer means a
// holder is stuck; the cache then simply does not store the entry.
const lockWait = 2 * time.Second

// errQueriesBusy reports that the cache lock could not be taken in time.
var errQueriesBusy = errors.New("query cache: lock busy")

// lock takes the cache lock, creating the cache directory if needed.
func (q *Queries) lock() (unlock func(), err error) {
	if err := fingerprint.MkdirAll(q.dir); err != nil {
		return nil, fmt.Errorf("query cache: %w", err)
	}
	fl := flock.New(filepath.Join(q.dir, lockName), flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(fingerprint.FilePerm))
	deadline := time.Now().Add(lockWait)
	delay := 50 * time.Microsecond
	for {
		ok, err := fl.TryLock()
		if err != nil {
			return nil, fmt.Errorf("query cache: lock: %w", err)
		}
		if ok {
			return func() { _ = fl.Unlock() }, nil
		}
		if time.Now().After(deadline) {
			return nil, errQueriesBusy
		}
		time.Sleep(delay)
		delay = min(2*delay, 5*time.Millisecond)
	}
}

// entryFile is one entry found by a scan.
type entryFile struct {
	path  string
	size  int64
	mtime time.Time
}

// makeRoom measures the cache and, if an entry of n bytes would not fit,
// evicts least recently used entries (oldest mtime first) until the cache
// plus n is at most 7/8 of the cap, so the next scans are an eighth of the
// cap of Puts away. It returns the exact usage found. The lock must be
// held.
func (q *Queries) makeRoom(n int64) (usage, error) {
	files, total, err := q.scan()
	if err != nil {
		return usage{}, err
	}
	if total+n <= q.capBytes {
		return usage{total: total}, nil
	}
	target := max(q.capBytes-q.capBytes/8, n)
	slices.SortFunc(files, func(a, b entryFile) int {
		return cmp.Or(a.mtime.Compare(b.mtime), strings.Compare(a.path, b.path))
	})
	for _, f := range files {
		if total+n <= target {
			break
		}
		if err := os.Remove(f.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= f.size
		}
	}
	return usage{total: total}, nil
}

// scan lists every entry, removes temporary files (all writes happen under
// the lock, so any found is an orphan of a crash) and empty fingerprint
// directories, and returns the entries and their total size.
func (q *Queries) scan() ([]entryFile, int64, error) {
	top, err := readDir(q.dir)
	if err != nil {
		return nil, 0, fmt.Errorf("query cache: scan: %w", err)
	}
	var files []entryFile
	var total int64
	for _, d := range top {
		if !d.IsDir() {
			continue
		}
		sub := filepath.Join(q.dir, d.Name())
		ents, err := readDir(sub)
		if err != nil {
			continue // removed meanwhile (another cache handle's Clear)
		}
		if len(ents) == 0 {
			_ = os.Remove(sub)
		}
		for _, e := range ents {
			p := filepath.Join(sub, e.Name())
			switch name := e.Name(); {
			case strings.HasPrefix(name, fingerprint.TempPrefix):
				_ = os.Remove(p)
			case strings.HasSuffix(name, entryExt):
				fi, err := e.Info()
				if err != nil || !fi.Mode().IsRegular() {
					continue
				}
				files = append(files, entryFile{path: p, size: fi.Size(), mtime: fi.ModTime()})
				total += fi.Size()
			}
		}
	}
	return files, total, nil
}

// readDir lists dir without sorting it.
func readDir(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
