package mirror

import (
	"fmt"
	"os"
	"path/filepath"
)

// tempPrefix starts the name of every temporary file this package writes.
// Store.GC removes such files; nothing ever reads them.
const tempPrefix = ".tmp-"

// writeFileAtomic replaces path with data: temp file in the same directory,
// write, fsync, close, rename, fsync the directory. A crash at any instant
// leaves either the old file or the new one. The temp file is removed on
// error.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := writeTempAndRename(dir, path, data, true); err != nil {
		return err
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	return nil
}

// writeTempAndRename does everything writeFileAtomic does except the final
// directory fsync, which the Store batches.
func writeTempAndRename(dir, path string, data []byte, sync bool) (err error) {
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	if sync {
		if err = f.Sync(); err != nil {
			return fmt.Errorf("atomic write %s: %w", path, err)
		}
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	return nil
}

// syncDir fsyncs a directory so that renames and creations in it are durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	return nil
}
