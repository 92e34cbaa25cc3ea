package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPathsNeverSplit names files whose names hold commas and quotes in
// every way a targeted refresh takes paths: arguments, repeated --paths,
// --paths-from a file (NUL-separated) and from stdin (one a line). Each
// is indexed as named.
func TestPathsNeverSplit(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "base.md", "the base\n")
	refreshJSON(t, root)
	names := []string{"a,b.md", `"q.md`, "c d,e.md", "arg,1.md", "nul,1.md", "nul 2.md", "line,1.md", `line"2.md`}
	for i, n := range names {
		writeFile(t, root, n, "the wolverine "+strings.Repeat("x", i+1)+"\n")
	}
	list := filepath.Join(t.TempDir(), "list")
	writeFile(t, filepath.Dir(list), "list", "nul,1.md\x00nul 2.md\x00")
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		added int
	}{
		{"--paths with a comma", "", []string{"--paths", "a,b.md"}, 1},
		{"--paths with a quote", "", []string{"--paths", `"q.md`}, 1},
		{"repeated --paths", "", []string{"--paths", "c d,e.md", "--paths", "base.md"}, 1},
		{"arguments", "", []string{"arg,1.md"}, 1},
		{"--paths-from FILE, NUL-separated", "", []string{"--paths-from", list}, 2},
		{"--paths-from -, one a line", "line,1.md\r\nline\"2.md\n\n", []string{"--paths-from", "-"}, 2},
		{"--paths-from an empty list", "", []string{"--paths-from", "-"}, 0},
	} {
		args := append([]string{"refresh", "--json"}, tt.args...)
		r := cliRun(t, root, strings.NewReader(tt.stdin), nil, args...)
		if r.code != 0 {
			t.Errorf("%s: exit %d: %s %s", tt.name, r.code, r.stdout, r.stderr)
			continue
		}
		m := r.json(t)
		if num(m, "added") != tt.added || len(failures(m)) != 0 {
			t.Errorf("%s: added %d failures %v, want %d and none", tt.name, num(m, "added"), m["failures"], tt.added)
		}
	}
	if got := bm25Paths(t, root, "wolverine"); len(got) != len(names) {
		t.Errorf("indexed %v, want all of %v", got, names)
	}
}
