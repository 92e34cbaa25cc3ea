//go:build !linux

package mirror

import (
	"io/fs"
	"os"
)

// statEntry returns the size and mtime of the regular file e in the open
// directory d.
func statEntry(_ *os.File, e fs.DirEntry) (size, mtimeNS int64, err error) {
	fi, err := e.Info()
	if err != nil {
		return 0, 0, err
	}
	if !fi.Mode().IsRegular() {
		return 0, 0, &fs.PathError{Op: "stat", Path: e.Name(), Err: fs.ErrNotExist}
	}
	return fi.Size(), fi.ModTime().UnixNano(), nil
}
