package engine

// OpenCommitted opens the generation the sidecar names, for a caller that
// runs many searches on one generation (Search); close it when done.
func (e *Engine) OpenCommitted() (*Generation, error) { return e.openCommitted() }
