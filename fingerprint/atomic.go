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

	"github.com/autorag/autorag/internal/failpoint"
)

// TempPrefix starts the name of every temporary file this package creates.
// Readers and garbage collectors treat such names as never committed.
const TempPrefix = ".tmp-"

// Modes of everything autorag creates under .autorag: the mirror, the caches
// and the generations hold document and query texts, so only the owner may
// read them. The umask can only make them stricter.
const (
	FilePerm os.FileMode = 0o600
	DirPerm  os.FileMode = 0o700
)

// DirSyncError reports that an atomic write renamed its file into place but
// could not fsync the directory afterwards. The new content is what readers
// now see, so the write has happened: a caller must treat it as done (a
// commit stands) and may report the error as a warning. Test for it with
// Renamed.
type DirSyncError struct {
	Path string
	Err  error
}

func (e *DirSyncError) Error() string {
	return fmt.Sprintf("atomic write %s: renamed, but directory sync failed: %v", e.Path, e.Err)
}

func (e *DirSyncError) Unwrap() error { return e.Err }

// Renamed reports whether err is (or wraps) a DirSyncError: the file is in
// place although the write returned an error.
func Renamed(err error) bool {
	var d *DirSyncError
	return errors.As(err, &d)
}

// AtomicFile is a temporary file that replaces its destination in one step
// on Commit: temp file in the same directory → write → fsync → close →
// rename → fsync of the directory. It is the one implementation of that
// sequence; WriteFileAtomic is its one-shot form.
type AtomicFile struct {
	*os.File
	durable bool
	done    bool
}

// CreateAtomic creates a temporary file for base in dir, open for reading
// and writing, named TempPrefix+base+".<random>" with mode perm (subject to
// the umask).
func CreateAtomic(dir, base string, perm os.FileMode) (*AtomicFile, error) {
	for range 100 {
		name := filepath.Join(dir, TempPrefix+base+"."+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("atomic write: %w", err)
		}
		return &AtomicFile{File: f, durable: true}, nil
	}
	return nil, fmt.Errorf("atomic write: create temporary file in %s: too many collisions", dir)
}

// Commit makes the written content the content of path and closes the
// file. On an error before the rename the temporary file is removed and
// path is unchanged; after the rename the only possible error is a
// *DirSyncError.
func (a *AtomicFile) Commit(path string) error { return a.commit(path, false) }

// CommitOpen is Commit that leaves the file open, for a caller that goes
// on reading what it wrote (a mirror pack). The caller closes it.
func (a *AtomicFile) CommitOpen(path string) error { return a.commit(path, true) }

func (a *AtomicFile) commit(path string, keepOpen bool) error {
	if a.done {
		return fmt.Errorf("atomic write %s: already finished", path)
	}
	a.done = true
	tmp := a.Name()
	err := error(nil)
	if a.durable {
		err = a.Sync()
	}
	if !keepOpen {
		if cerr := a.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		if keepOpen {
			_ = a.Close()
		}
		_ = os.Remove(tmp)
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	err = rename(tmp, path, a.durable)
	if err != nil && !Renamed(err) && keepOpen {
		_ = a.Close()
	}
	return err
}

// rename moves the complete file tmp to path and, when durable, fsyncs the
// directory. Before the rename an error removes tmp; after it, the only
// error is a *DirSyncError.
func rename(tmp, path string, durable bool) error {
	err := failpoint.Hit("before-rename-" + filepath.Base(path))
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	err = failpoint.Hit("after-rename-" + filepath.Base(path))
	if err == nil && durable {
		err = SyncDir(filepath.Dir(path))
	}
	if err != nil {
		return &DirSyncError{Path: path, Err: err}
	}
	return nil
}

// CommitFile makes the complete file tmp, written by the caller outside
// this package (a resumable download kept under a name of its own between
// runs), the content of path: fsync of tmp, rename, fsync of the
// directory, with Commit's outcomes. tmp must be in path's directory.
func CommitFile(tmp, path string) error {
	f, err := os.OpenFile(tmp, os.O_RDWR, 0)
	if err == nil {
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	return rename(tmp, path, true)
}

// Abort closes and removes the temporary file unless Commit ran. It is
// safe to defer.
func (a *AtomicFile) Abort() {
	if a.done {
		return
	}
	a.done = true
	_ = a.Close()
	_ = os.Remove(a.Name())
}

// WriteFileAtomic replaces path with data so that a crash at any instant
// leaves either the old content or the new one, never a mix, through
// CreateAtomic and Commit. A *DirSyncError means the new content is in
// place (see Renamed).
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return writeFile(path, data, perm, true, nil)
}

// ReplaceFile is WriteFileAtomic without the two fsyncs: readers still see
// the old content or the new one, never a mix, but a power loss may leave
// either. For caches whose entries are verified when read.
func ReplaceFile(path string, data []byte, perm os.FileMode) error {
	return writeFile(path, data, perm, false, nil)
}

// writeFile writes data to a temporary file, calls before on it (when not
// nil), and commits it at path.
func writeFile(path string, data []byte, perm os.FileMode, durable bool, before func(*os.File) error) error {
	a, err := CreateAtomic(filepath.Dir(path), filepath.Base(path), perm)
	if err != nil {
		return fmt.Errorf("%w (writing %s)", err, path)
	}
	a.durable = durable
	defer a.Abort()
	if _, err := a.Write(data); err != nil {
		return fmt.Errorf("atomic write %s: %w", path, err)
	}
	if before != nil {
		if err := before(a.File); err != nil {
			return fmt.Errorf("atomic write %s: %w", path, err)
		}
	}
	return a.Commit(path)
}

// IndexDirName is the directory of an index inside its root. MkdirAll
// never creates the directory that holds it.
const IndexDirName = ".autorag"

// ErrRootGone reports that MkdirAll was asked to create a directory under
// an index root (a directory holding IndexDirName) that does not exist: the
// user deleted it, and creating it again would bring back an empty root.
var ErrRootGone = errors.New("the index root is gone")

// MkdirAll creates dir and its missing parents with DirPerm, one level at a
// time, except an index root: a path with an IndexDirName component is
// created only below a root that exists. Each level is one mkdir whose
// parent must exist, so a root deleted while a refresh runs stays deleted
// whatever the refresh is doing (os.MkdirAll would create it again).
func MkdirAll(dir string) error {
	dir = filepath.Clean(dir)
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	if parent := filepath.Dir(dir); parent != dir && filepath.Base(dir) != IndexDirName {
		if err := MkdirAll(parent); err != nil {
			return err
		}
	}
	err := os.Mkdir(dir, DirPerm)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist):
		if fi, serr := os.Stat(dir); serr == nil && fi.IsDir() {
			return nil
		}
	case errors.Is(err, fs.ErrNotExist) && filepath.Base(dir) == IndexDirName:
		return fmt.Errorf("%w: %s: %w", ErrRootGone, filepath.Dir(dir), err)
	}
	return err
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
