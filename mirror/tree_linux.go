//go:build linux

package mirror

import (
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2 turned out to be missing (kernels before
// 5.6, or a seccomp filter refusing it).
var noOpenat2 atomic.Bool

// openBeneath opens name beneath dirfd with no symlink in any component:
// one openat2 call, or one openat per component where openat2 is missing.
func openBeneath(dirfd int, name string, flags int) (int, error) {
	if !noOpenat2.Load() {
		how := unix.OpenHow{Flags: uint64(flags), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
		for {
			fd, err := unix.Openat2(dirfd, name, &how)
			switch err {
			case unix.EINTR, unix.EAGAIN: // EAGAIN: a rename raced the lookup
				continue
			case unix.ENOSYS, unix.EPERM:
				noOpenat2.Store(true)
			default:
				return fd, err
			}
			break
		}
	}
	return openComponents(dirfd, name, flags)
}
