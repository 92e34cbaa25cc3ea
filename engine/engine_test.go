package engine

import (
	"testing"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/record"
)

func TestPathFilter(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"*.go", "internal/cache/lru.go", true},
		{"*.go", "lru.go", true},
		{"*.go", "docs/a.md", false},
		{"docs/**", "docs/guides/x.md", true},
		{"docs/", "docs/guides/x.md", true},
		{"docs/*.md", "docs/guides/x.md", false},
		{"docs/*.md", "docs/faq.md", true},
		{"**/guides/*.md", "docs/guides/x.md", true},
		{"?aq.md", "docs/faq.md", true},
		{"[fg]aq.md", "docs/faq.md", true},
		{"[!f]aq.md", "docs/faq.md", false},
		{"a+b.md", "a+b.md", true},
		// A directory stands for its subtree, ./ is the root, braces and !.
		{"reference/7.5", "reference/7.5/a/b.md", true},
		{"reference/7.5", "reference/7.50/a.md", false},
		{"./docs/**", "docs/guides/x.md", true},
		{"{docs,src}/**", "src/a.go", true},
		{"!docs/**", "docs/faq.md", false},
		{"!docs/**", "src/a.go", true},
	}
	for _, tt := range tests {
		f, err := newPathFilter([]string{tt.glob})
		if err != nil {
			t.Fatalf("%q: %v", tt.glob, err)
		}
		if got := f.Match(tt.path); got != tt.want {
			t.Errorf("glob %q on %q = %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
	var none *backend.PathFilter
	if !none.Match("anything") {
		t.Error("no filter must match everything")
	}
}

func TestChunkIDRoundTrip(t *testing.T) {
	for _, p := range []string{"a.md", "dir/x y.go", "weird\x1fname"} {
		for _, o := range []int{0, 7, 1234} {
			gp, go_ := record.SplitChunkID(record.ChunkID(p, o))
			if gp != p || go_ != o {
				t.Errorf("split(record.ChunkID(%q,%d)) = %q,%d", p, o, gp, go_)
			}
		}
	}
	if !record.LessChunkID(record.ChunkID("a", 2), record.ChunkID("a", 10)) || !record.LessChunkID(record.ChunkID("a", 10), record.ChunkID("b", 0)) {
		t.Error("chunk IDs must order by path, then numerically by ordinal")
	}
}
