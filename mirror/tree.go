package mirror

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// tree is the one way anything under a root is opened: the walk's
// directories, ignore files, the sources a scan reads, the paths a targeted
// refresh, a watcher or a reader names. Every open is relative to the
// root's descriptor and follows no symlink in any component, the last
// included (Linux: openat2 with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS; other
// Unix systems: one openat with O_NOFOLLOW per component), so a directory
// swapped for a symlink at any instant cannot lead out of the root or past
// an ignore rule. Files are opened without blocking (a FIFO or a device
// cannot hang the open) and only regular files are returned as files.
// Symlinks the walk does follow (a link to a file inside the root) are
// resolved by the walk first and the target opened by its own path.
type tree struct {
	dir  *os.File // the root directory
	path string   // its absolute path, symlinks resolved
	rt   *os.Root // for lstat of a leaf (parents checked with openDir)
}

// errSymlinkPath reports a path through a symlink (a component, or the
// last one for openFile and openDir).
var errSymlinkPath = errors.New("a path component is a symlink (not followed)")

// errNotRegular reports a path that is not a regular file.
var errNotRegular = errors.New(reasonNotRegular)

func openTree(root string) (*tree, error) {
	d, err := os.Open(root)
	if err != nil {
		return nil, err
	}
	rt, err := os.OpenRoot(root)
	if err != nil {
		d.Close()
		return nil, err
	}
	return &tree{dir: d, path: root, rt: rt}, nil
}

func (t *tree) close() {
	t.dir.Close()
	t.rt.Close()
}

// abs is the absolute path of rel, for messages.
func (t *tree) abs(rel string) string {
	if rel == "" {
		return t.path
	}
	return filepath.Join(t.path, filepath.FromSlash(rel))
}

// openFile opens the regular file rel ('/' separated, relative to the
// root) for reading.
func (t *tree) openFile(rel string) (*os.File, error) {
	f, err := t.open(rel, false)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s (%s): %w", rel, fi.Mode().Type(), errNotRegular)
	}
	return f, nil
}

// openDir opens the directory rel ("" is the root) for listing.
func (t *tree) openDir(rel string) (*os.File, error) {
	return t.open(rel, true)
}

// lstat describes rel without following it: its parent directories are
// opened first (so a symlinked one fails with errSymlinkPath), then the
// last component is stat'ed without following a symlink there.
func (t *tree) lstat(rel string) (fs.FileInfo, error) {
	if dir := path.Dir(rel); dir != "." {
		d, err := t.openDir(dir)
		if err != nil {
			return nil, err
		}
		d.Close()
	}
	return t.rt.Lstat(filepath.FromSlash(rel))
}

// readSmall reads the regular file rel whole, refusing one over max bytes.
func (t *tree) readSmall(rel string, max int64) ([]byte, error) {
	f, err := t.openFile(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %s (over %d bytes)", rel, reasonTooLarge, max)
	}
	return data, nil
}
