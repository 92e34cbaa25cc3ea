//go:build unix

package mirror

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// openFlags open without blocking, without a controlling terminal, and
// never past a symlink.
const openFlags = unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_NOFOLLOW

// open opens rel beneath the root without following any symlink.
func (t *tree) open(rel string, dir bool) (*os.File, error) {
	flags := openFlags
	if dir {
		flags |= unix.O_DIRECTORY
	}
	name := rel
	if name == "" {
		name = "."
	}
	fd, err := openBeneath(int(t.dir.Fd()), name, flags)
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) || (dir && err == unix.ENOTDIR && t.isSymlink(rel)) {
			err = errSymlinkPath
		}
		return nil, &fs.PathError{Op: "open", Path: t.abs(rel), Err: err}
	}
	return os.NewFile(uintptr(fd), t.abs(rel)), nil
}

// isSymlink reports whether the last component of rel is a symlink
// (O_DIRECTORY|O_NOFOLLOW on one fails with ENOTDIR, not ELOOP).
func (t *tree) isSymlink(rel string) bool {
	fi, err := t.rt.Lstat(filepath.FromSlash(rel))
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// openComponents opens name beneath dirfd one component at a time, each
// with O_NOFOLLOW: the portable form of openat2's RESOLVE_NO_SYMLINKS.
func openComponents(dirfd int, name string, flags int) (int, error) {
	parts := strings.Split(name, "/")
	cur := dirfd
	defer func() {
		if cur != dirfd {
			unix.Close(cur)
		}
	}()
	for i, p := range parts {
		if p == ".." {
			return -1, unix.EXDEV
		}
		fl := openFlags | unix.O_DIRECTORY
		if i == len(parts)-1 {
			fl = flags
		}
		fd, err := openatRetry(cur, p, fl)
		if err == unix.ENOTDIR && fl&unix.O_DIRECTORY != 0 && isLink(cur, p) {
			err = unix.ELOOP
		}
		if err != nil {
			return -1, err
		}
		if i == len(parts)-1 {
			return fd, nil
		}
		if cur != dirfd {
			unix.Close(cur)
		}
		cur = fd
	}
	return -1, unix.ENOENT
}

// isLink reports whether name in dirfd is a symlink.
func isLink(dirfd int, name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

func openatRetry(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}
