//go:build !unix

package mirror

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// open opens rel inside the root (os.Root keeps it there), refusing a
// symlink in any component by checking each one first.
func (t *tree) open(rel string, dir bool) (*os.File, error) {
	name := "."
	if rel != "" {
		name = filepath.FromSlash(rel)
		parts := strings.Split(rel, "/")
		for i := range parts {
			fi, err := t.rt.Lstat(filepath.FromSlash(strings.Join(parts[:i+1], "/")))
			if err != nil {
				return nil, err
			}
			if fi.Mode()&fs.ModeSymlink != 0 {
				return nil, &fs.PathError{Op: "open", Path: t.abs(rel), Err: errSymlinkPath}
			}
		}
	}
	f, err := t.rt.Open(name)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() != dir {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: t.abs(rel), Err: fmt.Errorf("directory mismatch")}
	}
	return f, nil
}
