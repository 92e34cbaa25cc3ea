package fingerprint

import (
	"fmt"
	"os"
	"path/filepath"
)

// SyncTree fsyncs every directory under dir (dir included) and every
// regular file but those with more than one hard link. A generation's
// files with more links are the immutable ones hard-linked from the
// generation before, which fsynced them before its commit; their new names
// are made durable by the fsync of the directory holding them. Where the
// link count is not known (not a Unix system), every file is fsynced.
func SyncTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && linkedElsewhere(d) {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return fmt.Errorf("sync %s: %w", p, err)
		}
		defer f.Close()
		if err := f.Sync(); err != nil {
			return fmt.Errorf("sync %s: %w", p, err)
		}
		return nil
	})
}
