// Package integrity decides whether a committed local generation still has
// the files it committed, for the readers and refreshes that use it while
// something else may damage it (a file truncated, zeroed or removed under
// a long-running server).
//
// A generation's segments are mapped: a file truncated under a reader
// faults (SIGBUS), one rewritten in place answers wrongly without a fault.
// Guarded runs a search or a refresh under a fault guard (internal/memfault)
// and, when it faulted or the files no longer have their committed sizes
// and modification times, verifies their digests: when they no longer
// match the sidecar that still names the generation, the work fails with
// that damage (ErrDamaged), which a refresh rebuilds. A generation a newer
// commit collected under its reader is not damage. Verdict remembers the
// damage found for one version of the sidecar, so that a server does not
// open and verify a damaged generation at every query.
//
// It must never import engine (which re-exports ErrDamaged).
package integrity
