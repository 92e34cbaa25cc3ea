package mirror

import "testing"

// TestTreeWithoutOpenat2 runs the resolver's checks on the fallback that
// opens one component at a time (kernels without openat2).
func TestTreeWithoutOpenat2(t *testing.T) {
	noOpenat2.Store(true)
	defer noOpenat2.Store(false)
	checkTree(t)
	TestPathEntriesAgree(t)
}
