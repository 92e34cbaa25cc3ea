package agentapi

import (
	"strings"
	"testing"

	"github.com/autorag/autorag/engine"
)

// TestPassageFrame: a passage's frame spends no tokens on noise: no
// Markdown attribute lists in its section, at most alsoInShown other
// places (the rest counted), and a fence named only by an extension that
// is a language's name.
func TestPassageFrame(t *testing.T) {
	also := []engine.Location{{Path: "docs/de/a.md", Lines: [2]int{1, 9}}, {Path: "docs/es/a.md", Lines: [2]int{1, 9}},
		{Path: "docs/fr/a.md", Lines: [2]int{1, 9}}, {Path: "docs/ja/a.md", Lines: [2]int{1, 9}}}
	for _, c := range []struct {
		name string
		hit  engine.Result
		want string
	}{
		{"anchors and many copies", engine.Result{Path: "docs/en/a.md", Lines: [2]int{3, 9}, Section: "Query Parameters { #query-parameters } > Defaults {#defaults}", AlsoIn: also},
			"\n[1] docs/en/a.md:3-9 — Query Parameters > Defaults\nAlso in: docs/de/a.md:1-9, docs/es/a.md:1-9, 2 more\n```md\n"},
		{"a man page", engine.Result{Path: "doc/man/restic-backup.1", Lines: [2]int{1, 40}},
			"\n[1] doc/man/restic-backup.1:1-40\n```\n"},
		{"an extension that is a language", engine.Result{Path: "src/x.c++", Lines: [2]int{1, 2}, Section: "main"},
			"\n[1] src/x.c++:1-2 — main\n```c++\n"},
	} {
		head, tail := passageFrame(1, Hit{Result: c.hit}, false)
		if head != c.want || tail != "\n```\n" {
			t.Errorf("%s: frame %q … %q, want %q", c.name, head, tail, c.want)
		}
	}
	if head, _ := passageFrame(1, Hit{Result: engine.Result{Path: "a.md", Lines: [2]int{1, 1}, Section: "{ #only-an-anchor }"}}, false); strings.Contains(head, "—") {
		t.Errorf("a section of only an anchor gives a title: %q", head)
	}
}
