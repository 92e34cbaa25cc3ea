package syntax

// Started reports whether this process has started the module (compiled
// it or loaded it from the cache, Warm): what a process that only queries
// an index must never pay for.
func Started() bool { return started() }
