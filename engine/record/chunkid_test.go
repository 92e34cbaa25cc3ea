package record

import "testing"

// TestChunkPathIsSplitPath: ChunkPath is the path SplitChunkID returns,
// for IDs of chunks and for strings that are not chunk IDs.
func TestChunkPathIsSplitPath(t *testing.T) {
	ids := []string{ChunkID("a/b.go", 0), ChunkID("a/b.go", 12), ChunkID("", 3), ChunkID("x\x01y", 7),
		"", "plain", "a\x00", "a\x00b\x001", "\x00"}
	for _, id := range ids {
		want, _ := SplitChunkID(id)
		if got := ChunkPath(id); got != want {
			t.Errorf("ChunkPath(%q) = %q, want %q", id, got, want)
		}
	}
}
