package fingerprint

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

// TempPrefix starts the name of every temporary file WriteFileAtomic creates.
// Readers and garbage collectors treat such names as never committed.
const TempPrefix = ".tmp-"

// WriteFileAtomic replaces path with data so that a crash at any instant
// leaves either the old content or the new one, never a mix. It writes a
// temporary file in the same directory (named with TempPrefix), fsyncs and
// closes it, renames it over path and fsyncs the directory. On any error
// before the rename the temporary file is removed. perm is applied as by
// os.WriteFile (subject to the umask).
func WriteFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	f, err := createTemp(dir, filepath.Base(path), perm)
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
	if err := writeSyncClose(f, data); err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	if err := SyncDir(dir); err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	return nil
}

// createTemp creates a new file named TempPrefix+base+".<random>" in dir.
// Unlike os.CreateTemp it honours perm, so the result has the same mode as a
// file written by os.WriteFile.
func createTemp(dir, base string, perm os.FileMode) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, TempPrefix+base+"."+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("create temporary file in %s: too many collisions", dir)
}

// writeSyncClose writes data to f, flushes it to stable storage and closes f.
func writeSyncClose(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

// SyncDir fsyncs the directory dir so that renames and creations inside it
// survive a crash. It is a no-op on Windows, where directories cannot be
// synced.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	if err := d.Sync(); err != nil {
		_ = d.Close()
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	if err := d.Close(); err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}
