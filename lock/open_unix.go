//go:build unix

package lock

import "syscall"

// openFlags are added to every open of the lock file: never follow a
// symlink swapped in after the Lstat check, and never block opening a fifo.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
