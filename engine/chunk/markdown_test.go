package chunk

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// md joins lines with "\n", so tests read line by line.
func md(lines ...string) string { return strings.Join(lines, "\n") }

func TestSplitMarkdown(t *testing.T) {
	tests := []struct {
		name string
		text string
		size int
		want []Chunk
	}{
		{
			name: "level 2 headings always start a chunk",
			text: md("# Guide", "", "Intro para.", "", "## Install", "", "Run make.", "", "## Usage", "", "Call it."),
			size: 1000,
			want: []Chunk{
				{Text: md("# Guide", "", "Intro para."), StartLine: 1, EndLine: 3, Section: "Guide"},
				{Text: md("## Install", "", "Run make."), StartLine: 5, EndLine: 7, Section: "Guide > Install"},
				{Text: md("## Usage", "", "Call it."), StartLine: 9, EndLine: 11, Section: "Guide > Usage"},
			},
		},
		{
			name: "small subsections merge under their parent",
			text: md("## Install", "", "Pick one.", "", "### Linux", "apt install x", "", "### macOS", "brew install x"),
			size: 1000,
			want: []Chunk{
				{Text: md("## Install", "", "Pick one.", "", "### Linux", "apt install x", "", "### macOS", "brew install x"), StartLine: 1, EndLine: 9, Section: "Install"},
			},
		},
		{
			name: "a subsection that does not fit starts a new chunk",
			text: md("## Install", "", "Pick one.", "", "### Linux", "apt install x", "", "### macOS", "brew install x"),
			size: 60,
			want: []Chunk{
				{Text: md("## Install", "", "Pick one.", "", "### Linux", "apt install x"), StartLine: 1, EndLine: 6, Section: "Install"},
				{Text: md("### macOS", "brew install x"), StartLine: 8, EndLine: 9, Section: "Install > macOS"},
			},
		},
		{
			name: "fences are one block and hide headings",
			text: md("## Build", "", "```sh", "# comment", "", "make all", "```", "", "~~~", "## not heading", "~~~"),
			size: 40,
			want: []Chunk{
				{Text: md("## Build", "", "```sh", "# comment", "", "make all", "```"), StartLine: 1, EndLine: 7, Section: "Build"},
				{Text: md("~~~", "## not heading", "~~~"), StartLine: 9, EndLine: 11, Section: "Build"},
			},
		},
		{
			name: "a longer closing fence closes, a shorter one does not",
			text: md("````", "```", "# inside", "`````", "# Outside", "text"),
			size: 1000,
			want: []Chunk{
				{Text: md("````", "```", "# inside", "`````"), StartLine: 1, EndLine: 4},
				{Text: md("# Outside", "text"), StartLine: 5, EndLine: 6, Section: "Outside"},
			},
		},
		{
			name: "an unclosed fence runs to the end",
			text: md("```", "code", "", "# not a heading", ""),
			size: 1000,
			want: []Chunk{{Text: md("```", "code", "", "# not a heading"), StartLine: 1, EndLine: 4}},
		},
		{
			name: "a table is one block",
			text: md("Intro.", "", "| a | b |", "|---|---|", "| 1 | 2 |"),
			size: 30,
			want: []Chunk{
				{Text: "Intro.", StartLine: 1, EndLine: 1},
				{Text: md("| a | b |", "|---|---|", "| 1 | 2 |"), StartLine: 3, EndLine: 5},
			},
		},
		{
			name: "paragraphs pack greedily",
			text: md("aaaa", "", "bbbb", "", "cccc"),
			size: 10,
			want: []Chunk{
				{Text: md("aaaa", "", "bbbb"), StartLine: 1, EndLine: 3},
				{Text: "cccc", StartLine: 5, EndLine: 5},
			},
		},
		{
			name: "heading syntax",
			text: md("  ### Title ###", "    # indented code", "#hashtag", "####### seven", "## C#", "text"),
			size: 1000,
			want: []Chunk{
				{Text: md("  ### Title ###", "    # indented code", "#hashtag", "####### seven"), StartLine: 1, EndLine: 4, Section: "Title"},
				{Text: md("## C#", "text"), StartLine: 5, EndLine: 6, Section: "C#"},
			},
		},
		{
			name: "headings at the end of a chunk move to the next",
			text: md("## A", "aaa", "", "### B", "", "#### C", "ccc"),
			size: 20,
			want: []Chunk{
				{Text: md("## A", "aaa"), StartLine: 1, EndLine: 2, Section: "A"},
				{Text: md("### B", "", "#### C", "ccc"), StartLine: 4, EndLine: 7, Section: "A > B > C"},
			},
		},
		{
			name: "text before the first heading has no section",
			text: md("Preamble.", "", "## X", "body"),
			size: 1000,
			want: []Chunk{
				{Text: "Preamble.", StartLine: 1, EndLine: 1},
				{Text: md("## X", "body"), StartLine: 3, EndLine: 4, Section: "X"},
			},
		},
		{
			name: "a heading-only document",
			text: "# Only\n",
			size: 1000,
			want: []Chunk{{Text: "# Only", StartLine: 1, EndLine: 1, Section: "Only"}},
		},
		{
			name: "a shallower heading closes deeper ones",
			text: md("# A", "", "### B", "b", "", "## C", "c"),
			size: 1000,
			want: []Chunk{
				{Text: md("# A", "", "### B", "b"), StartLine: 1, EndLine: 4, Section: "A > B"},
				{Text: md("## C", "c"), StartLine: 6, EndLine: 7, Section: "A > C"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Size: tt.size}
			got := Split(KindMarkdown, tt.text, o)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("Split mismatch (-want +got):\n%s", diff)
			}
			checkChunks(t, tt.text, o, got)
		})
	}
}

func TestMarkdownLargeSectionCutKeepsHeading(t *testing.T) {
	para := strings.Repeat("word ", 19) + "end" // 98 runes
	text := md("## Big", "", para, para, para, "", "## Next", "small")
	o := Options{Size: 250, Overlap: 100}
	got := Split(KindMarkdown, text, o)
	checkChunks(t, text, o, got)
	if got[0].StartLine != 1 || !strings.HasPrefix(got[0].Text, "## Big\n") {
		t.Fatalf("first piece does not start with its heading: %+v", got[0])
	}
	if len(got) != 3 || got[1].StartLine != 4 || got[1].EndLine != 5 {
		t.Fatalf("want pieces 1-4 and 4-5 (one paragraph line of overlap) then Next, got %+v", got)
	}
	for _, c := range got[:len(got)-1] {
		if c.Section != "Big" {
			t.Errorf("piece %d-%d section = %q, want %q", c.StartLine, c.EndLine, c.Section, "Big")
		}
	}
	last := got[len(got)-1]
	if last.StartLine != 7 || last.Section != "Next" {
		t.Fatalf("last chunk = %+v, want the Next section", last)
	}
}
