// Package lock is the single-writer lock of an autorag root:
// .autorag/refresh.lock (DESIGN invariant 3).
//
// refresh, every watch tick, index rebuild and index reset take the lock
// before changing anything; query and status never take it. The lock is an
// exclusive flock(2) on a regular file, so the kernel drops it when the
// holding process dies, however it dies: there is no stale lock to detect or
// reclaim. The file is created on first use and never removed by anything.
//
// After taking the lock the holder writes who it is (pid, host, time,
// command) into the file as one JSON object, so that a process that finds
// the lock busy can say who holds it. The record stays in the file after
// release; whether the lock is held is decided by flock alone, never by the
// record.
//
// A lock path that exists but is not a regular file (a directory, a
// symlink, even to a regular file, a fifo, a socket, a device) is refused
// with an error wrapping ErrNotRegular, and nothing is touched.
package lock
