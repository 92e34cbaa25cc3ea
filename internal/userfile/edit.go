package userfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/autorag/autorag/fingerprint"
)

// Backup says what copy of the old content an edit keeps.
type Backup int

const (
	NoBackup Backup = iota
	// BackupEach copies the old content to a new FILE.bak (FILE.bak.2,
	// ...), never over an earlier backup: for a file edited once in a
	// while (an agent's configuration), where the first backup is the
	// user's own file.
	BackupEach
	// BackupLatest replaces FILE.bak with the old content: for a file
	// edited often (the workspace file), one backup of the version before.
	BackupLatest
)

// Options say how a file is created and edited.
type Options struct {
	Perm    os.FileMode   // a new file's permission bits (an old file keeps its own)
	DirPerm os.FileMode   // for a missing parent directory
	Backup  Backup        // the copy of the old content made first
	Wait    time.Duration // how long to wait for another editor (0: DefaultWait)
}

// DefaultWait is how long an edit waits for another editor's lock.
const DefaultWait = 30 * time.Second

// Result says what Edit did.
type Result struct {
	// Path is the file written: the link's target when the path named a
	// symbolic link.
	Path    string
	Changed bool
	Backup  string // the copy of the old content, if one was made
}

// Change computes the new content from the old (nil when the file does
// not exist). Returning the old content unchanged writes nothing.
type Change func(old []byte) ([]byte, error)

// Edit applies change to the file at path under its lock (see the
// package comment).
func Edit(ctx context.Context, path string, o Options, change Change) (Result, error) {
	target, err := Target(path)
	if err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(filepath.Dir(target), dirPerm(o)); err != nil {
		return Result{}, fmt.Errorf("%s: %w", path, err)
	}
	unlock, err := lock(ctx, target, o.Wait)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	return edit(target, o, change)
}

// edit is Edit under the lock.
func edit(target string, o Options, change Change) (Result, error) {
	res := Result{Path: target}
	old, perm, err := read(target)
	if err != nil {
		return res, err
	}
	out, err := change(old)
	if err != nil {
		return res, err
	}
	if old != nil && bytes.Equal(out, old) {
		return res, nil
	}
	if old == nil {
		perm = o.Perm
	} else if res.Backup, err = backup(target, old, perm, o.Backup); err != nil {
		return res, err
	}
	if err := write(target, out, perm); err != nil {
		return res, err
	}
	res.Changed = true
	return res, nil
}

func dirPerm(o Options) os.FileMode {
	if o.DirPerm == 0 {
		return 0o700
	}
	return o.DirPerm
}

// Target is the file an edit of path writes: path itself, or the file a
// symbolic link at path leads to. A link to nothing, or a path that is not
// a regular file, is an error.
func Target(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	target := path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			dest, _ := os.Readlink(path)
			return "", fmt.Errorf("%s is a symbolic link to %s, which cannot be followed (%w): point it at a file or replace it with one", path, dest, err)
		}
		if fi, err = os.Stat(target); err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file (%v): autorag edits only regular files", path, fi.Mode().Type())
	}
	return target, nil
}

// ReadOnlyError is a file whose owner may not write it: autorag leaves it
// alone.
type ReadOnlyError struct {
	Path string
	Perm os.FileMode
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s is read-only (mode %04o), so autorag leaves it alone: make it writable (chmod u+w) and run again, or edit it by hand", e.Path, e.Perm)
}

// read returns the file's content (nil when missing) and permission bits;
// a read-only file is a *ReadOnlyError.
func read(path string) ([]byte, os.FileMode, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	if fi.Mode().Perm()&0o200 == 0 {
		return nil, 0, &ReadOnlyError{Path: path, Perm: fi.Mode().Perm()}
	}
	if b == nil {
		b = []byte{}
	}
	return b, fi.Mode().Perm(), nil
}

// write replaces path with data, atomically, with exactly perm.
func write(path string, data []byte, perm os.FileMode) error {
	a, err := fingerprint.CreateAtomic(filepath.Dir(path), filepath.Base(path), perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer a.Abort()
	if _, err := a.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := a.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := a.Commit(path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// lock takes the exclusive lock of path, waiting up to wait for another
// editor; it returns the release.
func lock(ctx context.Context, path string, wait time.Duration) (func(), error) {
	if wait <= 0 {
		wait = DefaultWait
	}
	fl := flock.New(path+".lock", flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 20*time.Millisecond)
	if err == nil && !ok {
		err = ctx.Err()
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("%s: another autorag has been editing it for %s (lock %s.lock); try again", path, wait, path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { _ = fl.Unlock() }, nil
}

// backup copies content beside path as how says; it returns the copy's
// name ("" for none).
func backup(path string, content []byte, perm os.FileMode, how Backup) (string, error) {
	switch how {
	case NoBackup:
		return "", nil
	case BackupLatest:
		if err := write(path+".bak", content, perm); err != nil {
			return "", fmt.Errorf("backup of %s: %w", path, err)
		}
		return path + ".bak", nil
	}
	for i := 1; ; i++ {
		name := path + ".bak"
		if i > 1 {
			name = fmt.Sprintf("%s.bak.%d", path, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("backup of %s: %w", path, err)
		}
		_, err = f.Write(content)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", fmt.Errorf("backup of %s: %w", path, err)
		}
		return name, nil
	}
}
