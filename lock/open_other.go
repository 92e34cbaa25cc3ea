//go:build !unix

package lock

// openFlags are added to every open of the lock file; the Lstat check and
// the post-open Stat check are the only guards on this platform.
const openFlags = 0
