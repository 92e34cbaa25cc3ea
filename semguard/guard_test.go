package semguard

import "testing"

// TestGuard is the semantics guard of this module: it fails when code that
// shapes what the index stores changed and neither IndexSemanticsVersion
// was bumped nor the digests were recorded deliberately, when the version
// was bumped with no such change, and when the compiled-in query digest is
// stale. Its message says what changed and what to do.
func TestGuard(t *testing.T) {
	st, err := baseline() // Check("..", Project), sharing the load with the mutation tests
	if err != nil {
		t.Fatal(err)
	}
	rec, err := readRecord("..", Project)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.verdict(rec, Project); err != nil {
		t.Fatal(err)
	}
}
