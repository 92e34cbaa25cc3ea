package agentapi

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/budget"
	"github.com/autorag/autorag/internal/indextest"
)

func TestSnippet(t *testing.T) {
	filler := func(from, to int) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			b.WriteString("plain words on a line of filler text number " + strings.Repeat("x", i%5) + "\n")
		}
		return b.String()
	}
	long := filler(1, 9) + "the Herons fish at dawn\n" + filler(11, 20)
	tests := []struct {
		name, text, query string
		first, limit      int
		want              string
		shown             [][2]int
		trimmed           bool
	}{
		{name: "short text whole", text: "a heron\nand a river\n", query: "heron", first: 4, limit: 480,
			want: "a heron\nand a river\n"},
		{name: "the match and its neighbours", text: long, query: "heron", first: 101, limit: 160,
			want:  strings.Join(strings.Split(long, "\n")[8:11], "\n") + "\n",
			shown: [][2]int{{109, 111}}, trimmed: true},
		{name: "blank lines at the edges are left out, blank gaps kept", text: filler(1, 5) + "\nthe heron\n\nfishes for the heron\n\n" + filler(11, 15), query: "heron", first: 1, limit: 40,
			want: "the heron\n\nfishes for the heron\n", shown: [][2]int{{7, 9}}, trimmed: true},
		{name: "no match: the opening lines", text: long, query: "kingfisher", first: 1, limit: 100,
			want: strings.Join(strings.Split(long, "\n")[:2], "\n") + "\n", shown: [][2]int{{1, 2}}, trimmed: true},
		{name: "no line numbers (a PDF page)", text: long, query: "heron", first: 0, limit: 30,
			want: "the Herons fish at dawn\n", trimmed: true},
		{name: "one line longer than the limit: cut around the match", text: strings.Repeat("word ", 40) + "heron " + strings.Repeat("word ", 200) + "\n" + strings.Repeat("word ", 20) + "\n", query: "heron", first: 1, limit: 50,
			want: "…word word heron word word word word word…\n", shown: [][2]int{{1, 1}}, trimmed: true},
		{name: "a long first line without a match", text: strings.Repeat("word ", 200) + "\n", query: "heron", first: 1, limit: 30,
			want: "word word word word word…\n", shown: [][2]int{{1, 1}}, trimmed: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, shown, trimmed := snippet(tc.text, tc.first, budget.NewMatcher(tc.query), tc.limit)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("text (-want +got):\n%s", d)
			}
			if !cmp.Equal(tc.shown, shown) || trimmed != tc.trimmed {
				t.Errorf("shown %v trimmed %v, want %v %v", shown, trimmed, tc.shown, tc.trimmed)
			}
		})
	}
}

// TestSnippetsFollowTheGeneration: a repeated search sends the same
// snippets (from the workspace's snippet cache), and a refresh that changes
// the passage changes its snippet.
func TestSnippetsFollowTheGeneration(t *testing.T) {
	body := func(word string) string {
		var b strings.Builder
		b.WriteString("# Birds\n\n")
		for i := range 30 {
			if i == 15 {
				b.WriteString("the " + word + " kingfisher dives into the river\n")
				continue
			}
			b.WriteString("a line of filler about herons in shallow water\n")
		}
		return b.String()
	}
	root := t.TempDir()
	e := indextest.Files(t, root, map[string]string{"birds.md": body("blue")})
	w := Single(e, Options{CacheBytes: 1 << 20})
	defer w.Close()
	search := func() Hit {
		t.Helper()
		a, err := w.Search(t.Context(), WorkspaceSearch{SearchRequest: SearchRequest{Query: "kingfisher"}, Snippets: true})
		if err != nil || len(a.Results) != 1 {
			t.Fatalf("search: %v %+v", err, a)
		}
		return a.Results[0]
	}
	first, again := search(), search()
	if !first.Trimmed || !strings.Contains(first.Text, "the blue kingfisher") || !cmp.Equal(first, again) {
		t.Fatalf("snippets: first %+v, again %+v", first, again)
	}
	indextest.WriteTree(t, root, map[string]string{"birds.md": body("green")})
	if _, err := w.Refresh(t.Context(), WorkspaceRefresh{}); err != nil {
		t.Fatal(err)
	}
	if after := search(); !strings.Contains(after.Text, "the green kingfisher") {
		t.Errorf("snippet after the refresh: %q", after.Text)
	}
}
