// Package memfault turns a fault on a memory-mapped file into an error of
// the caller that touched it, instead of the death of the process.
//
// bleve's segments and the vector segments are mapped: when a mapped file
// is truncated under a reader, the next access to a page past its new end
// raises SIGBUS, which the Go runtime treats as fatal unless the faulting
// goroutine asked for a panic instead (debug.SetPanicOnFault). That
// setting is per goroutine, so every goroutine that reads mapped memory
// runs under Guard (the request's own) or a Group (the workers a search
// fans out to), and a Group hands a worker's fault back to the goroutine
// that waits for it, where Guard turns it into an error wrapping ErrFault.
//
// It imports nothing of autorag's.
package memfault
