package lock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

var (
	// ErrBusy reports that another process holds the refresh lock. Errors
	// returned by Acquire for that reason are *BusyError values wrapping it.
	ErrBusy = errors.New("refresh lock is held by another process")
	// ErrNotRegular reports that the lock path exists but is not a regular
	// file: a directory, a symlink (even to a regular file), a fifo, ...
	ErrNotRegular = errors.New("refresh lock is not a regular file")
)

const (
	// firstDelay and maxDelay bound the backoff between attempts while
	// waiting for the lock.
	firstDelay = 10 * time.Millisecond
	maxDelay   = 500 * time.Millisecond
	// sharedRetries is how many more times a non-waiting Acquire tries when
	// only shared locks (taken for a moment by Inspect) are in its way.
	sharedRetries = 3
	// maxRecord bounds how much of the lock file is read as the holder.
	maxRecord = 64 << 10
)

// Holder identifies the process holding the lock. It is stored as JSON in
// the lock file.
type Holder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Since   time.Time `json:"since"`
	Command string    `json:"command"`
}

// BusyError is returned by Acquire when another process holds the lock.
// errors.Is(err, ErrBusy) holds for it.
type BusyError struct {
	// Holder is who holds the lock, or nil when the lock file does not say
	// (the holder has not written its record yet).
	Holder *Holder
}

// Error names the holder when it is known.
func (e *BusyError) Error() string {
	if e.Holder == nil {
		return ErrBusy.Error()
	}
	var parts []string
	h := e.Holder
	if h.PID != 0 {
		parts = append(parts, fmt.Sprintf("pid %d", h.PID))
	}
	if h.Host != "" {
		parts = append(parts, "on "+h.Host)
	}
	if !h.Since.IsZero() {
		parts = append(parts, "since "+h.Since.Format(time.RFC3339))
	}
	if h.Command != "" {
		parts = append(parts, fmt.Sprintf("running %q", h.Command))
	}
	if len(parts) == 0 {
		return ErrBusy.Error()
	}
	return ErrBusy.Error() + " (" + strings.Join(parts, " ") + ")"
}

// Unwrap makes errors.Is(err, ErrBusy) true.
func (e *BusyError) Unwrap() error { return ErrBusy }

// Lock is a held refresh lock.
type Lock struct {
	path   string
	fl     *flock.Flock
	holder Holder
}

// Holder returns the record this process wrote into the lock file.
func (l *Lock) Holder() Holder { return l.holder }

// Release drops the lock. The lock file and the holder record stay. Calling
// Release again does nothing.
func (l *Lock) Release() error {
	if err := l.fl.Unlock(); err != nil {
		return fmt.Errorf("release refresh lock %s: %w", l.path, err)
	}
	return nil
}

// Acquire takes the exclusive lock at path for command (recorded for busy
// messages, e.g. "autorag refresh").
//
// With wait == 0 it tries once and returns a *BusyError at once if another
// process holds the lock. With wait > 0 it retries, backing off from 10ms
// to at most 500ms with jitter, until the lock is free or wait has elapsed
// (then *BusyError). If ctx is done first, it returns an error wrapping
// ctx.Err().
//
// The parent directory is created if missing. A path that exists but is
// not a regular file yields an error wrapping ErrNotRegular, and nothing is
// touched. On success the holder record is written into the file.
func Acquire(ctx context.Context, path string, wait time.Duration, command string) (*Lock, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("acquire refresh lock: %w", err)
	}
	if err := prepare(path); err != nil {
		return nil, err
	}
	fl := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR|openFlags), flock.SetPermissions(0o600))
	ok, err := tryLock(fl, path)
	if err == nil && !ok && wait > 0 {
		ok, err = waitLock(ctx, fl, path, wait)
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &BusyError{Holder: readHolder(path)}
	}
	l := &Lock{path: path, fl: fl, holder: newHolder(command)}
	if err := l.start(); err != nil {
		_ = fl.Unlock()
		return nil, err
	}
	return l, nil
}

// prepare creates the lock's directory and refuses a non-regular lock path.
// It creates that directory alone (its parent, an index root, must exist):
// a lock taken on a root the user deleted fails instead of creating the
// root again.
func prepare(path string) error {
	if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create lock directory: %w", err)
	}
	_, err := lstatLock(path)
	return err
}

// lstatLock reports whether path exists, and an error wrapping
// ErrNotRegular when it exists but is not a regular file.
func lstatLock(path string) (bool, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("stat refresh lock: %w", err)
	}
	return true, regularOrError(path, fi)
}

// regularOrError returns nil for a regular file and an error naming path
// and its kind otherwise.
func regularOrError(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s is a %s: %w", path, kind(fi.Mode()), ErrNotRegular)
}

// kind names a non-regular file mode for error messages.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file (" + m.Type().String() + ")"
}

// openError explains a failure to open the lock file, preferring
// ErrNotRegular when something other than a regular file now sits there.
func openError(path string, err error) error {
	if _, nerr := lstatLock(path); errors.Is(nerr, ErrNotRegular) {
		return nerr
	}
	return fmt.Errorf("open refresh lock %s: %w", path, err)
}

// tryLock tries the exclusive lock without waiting. When the lock is in
// use only by shared holders, which Inspect takes for an instant, it tries
// again a few times rather than report a busy lock nobody holds.
func tryLock(fl *flock.Flock, path string) (bool, error) {
	for i := 0; ; i++ {
		ok, err := fl.TryLock()
		if err != nil {
			return false, openError(path, err)
		}
		if ok {
			return true, checkLocked(fl, path)
		}
		if i == sharedRetries || !onlyShared(path) {
			return false, nil
		}
		time.Sleep(time.Millisecond)
	}
}

// checkLocked makes sure the file just locked is a regular file (closing
// the race with a swap after the Lstat check); on failure it unlocks.
func checkLocked(fl *flock.Flock, path string) error {
	fi, err := fl.Stat()
	if err == nil {
		err = regularOrError(path, fi)
	}
	if err != nil {
		_ = fl.Unlock()
		return err
	}
	return nil
}

// onlyShared reports whether a shared lock on path can be taken, that is,
// nobody holds it exclusively.
func onlyShared(path string) bool {
	probe := flock.New(path, flock.SetFlag(os.O_RDONLY|openFlags))
	ok, err := probe.TryRLock()
	if ok {
		_ = probe.Unlock()
	}
	return ok && err == nil
}

// waitLock retries tryLock with a jittered exponential backoff until it
// succeeds, wait elapses (false, nil) or ctx is done.
func waitLock(ctx context.Context, fl *flock.Flock, path string, wait time.Duration) (bool, error) {
	deadline := time.Now().Add(wait)
	for delay := firstDelay; ; delay = min(2*delay, maxDelay) {
		left := time.Until(deadline)
		if left <= 0 {
			return false, nil
		}
		if err := sleep(ctx, min(jitter(delay), left)); err != nil {
			return false, fmt.Errorf("wait for refresh lock %s: %w", path, err)
		}
		if ok, err := tryLock(fl, path); ok || err != nil {
			return ok, err
		}
	}
}

// jitter returns a duration in [d/2, d].
func jitter(d time.Duration) time.Duration {
	return d/2 + rand.N(d/2+1)
}

// sleep waits for d or until ctx is done, returning ctx.Err() then.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// newHolder describes this process.
func newHolder(command string) Holder {
	host, _ := os.Hostname()
	return Holder{PID: os.Getpid(), Host: host, Since: time.Now().UTC(), Command: command}
}

// start writes l's holder record into the lock file, replacing the last
// holder's. It opens a second descriptor: flock locks belong to the open
// file description, so closing this one keeps the lock.
func (l *Lock) start() error {
	data, err := json.Marshal(l.holder)
	if err != nil {
		return fmt.Errorf("encode lock holder: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|openFlags, 0)
	if err != nil {
		return fmt.Errorf("write lock holder: %w", err)
	}
	if err := writeRecord(f, append(data, '\n')); err != nil {
		_ = f.Close()
		return fmt.Errorf("write lock holder %s: %w", l.path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write lock holder %s: %w", l.path, err)
	}
	return nil
}

// writeRecord truncates f and writes data at its start.
func writeRecord(f *os.File, data []byte) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt(data, 0)
	return err
}

// Inspect reports who holds the lock at path without getting in the way:
// it takes a shared lock for an instant. It returns nil, nil when the file
// is missing or nobody holds the lock (a record left by the last holder is
// ignored then), and the recorded holder when someone does; a holder that
// has not written its record yet is reported as a zero Holder. A path that
// is not a regular file yields an error wrapping ErrNotRegular.
func Inspect(path string) (*Holder, error) {
	exists, err := lstatLock(path)
	if err != nil || !exists {
		return nil, err
	}
	probe := flock.New(path, flock.SetFlag(os.O_RDONLY|openFlags))
	ok, err := probe.TryRLock()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, openError(path, err)
	}
	if ok {
		_ = probe.Unlock()
		return nil, nil
	}
	if h := readHolder(path); h != nil {
		return h, nil
	}
	return &Holder{}, nil
}

// readHolder returns the record in the lock file, or nil when there is
// none or it cannot be read.
func readHolder(path string) *Holder {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecord))
	if err != nil {
		return nil
	}
	var h Holder
	if err := json.Unmarshal(data, &h); err != nil {
		return nil
	}
	return &h
}
