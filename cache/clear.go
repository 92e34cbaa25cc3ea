package cache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// IsLockFile reports whether name is the name of a lock file of a cache
// (the query cache's .lock, an embedding cache's writer.lock). Such files
// are never removed: a process may hold a flock on one, and removing it
// would let a third process lock a new file of the same name.
func IsLockFile(name string) bool { return name == lockName || name == writerLockName }

// RemoveAll empties the cache directory dir: it removes every file and
// every directory left empty, but keeps the lock files (IsLockFile) and the
// directories holding them. Symlinks are removed, never followed. It
// returns whether it removed anything.
func RemoveAll(dir string) (bool, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("clear cache: %w", err)
	}
	removed := false
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			r, err := RemoveAll(p)
			if err != nil {
				return removed, err
			}
			removed = removed || r
			// A directory still holding a lock file stays.
			if err := os.Remove(p); err == nil {
				removed = true
			}
		case IsLockFile(e.Name()) && e.Type().IsRegular():
		default:
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return removed, fmt.Errorf("clear cache: %w", err)
			}
			removed = true
		}
	}
	return removed, nil
}
