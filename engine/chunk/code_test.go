package chunk

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitCode(t *testing.T) {
	goSrc := md(
		"package x",
		"",
		`import "fmt"`,
		"",
		"// Parse parses.",
		"func Parse(p string) error {",
		"\tx := 1",
		"",
		"\treturn nil",
		"}",
	)
	tests := []struct {
		name string
		text string
		size int
		want []Chunk
	}{
		{
			name: "blank lines inside a body do not split a block",
			text: goSrc,
			size: 70,
			want: []Chunk{
				{Text: md("package x", "", `import "fmt"`), StartLine: 1, EndLine: 3, Section: "package x"},
				{Text: md("// Parse parses.", "func Parse(p string) error {", "\tx := 1", "", "\treturn nil", "}"), StartLine: 5, EndLine: 10, Section: "func Parse(p string) error",
					Defs: []Def{{Name: "Parse", Kind: "function", Line: 6}}},
			},
		},
		{
			name: "blocks pack greedily under the first block's signature",
			text: goSrc,
			size: 1000,
			want: []Chunk{{Text: goSrc, StartLine: 1, EndLine: 10, Section: "package x", Defs: []Def{{Name: "Parse", Kind: "function", Line: 6}}}},
		},
		{
			name: "decorators are skipped in the signature",
			text: md("@app.route(\"/\")", "def index():", "    return 1"),
			size: 1000,
			want: []Chunk{{Text: md("@app.route(\"/\")", "def index():", "    return 1"), StartLine: 1, EndLine: 3, Section: "def index():",
				Defs: []Def{{Name: "index", Kind: "function", Line: 2}}}},
		},
		{
			name: "attributes are skipped in the signature",
			text: md("#[derive(Debug)]", "pub struct Config {", "    a: u8,", "}"),
			size: 1000,
			want: []Chunk{{Text: md("#[derive(Debug)]", "pub struct Config {", "    a: u8,", "}"), StartLine: 1, EndLine: 4, Section: "pub struct Config",
				Defs: []Def{{Name: "Config", Kind: "class", Line: 2}}}},
		},
		{
			name: "a comment-only block is labelled by its first line",
			text: md("// Copyright 2026", "// Licensed MIT"),
			size: 1000,
			want: []Chunk{{Text: md("// Copyright 2026", "// Licensed MIT"), StartLine: 1, EndLine: 2, Section: "// Copyright 2026"}},
		},
		{
			name: "a column-0 line without a blank line before it continues the block",
			text: md("var a = 1", "var b = 2", "", "", "var c = 3"),
			size: 20,
			want: []Chunk{
				{Text: md("var a = 1", "var b = 2"), StartLine: 1, EndLine: 2, Section: "var a = 1"},
				{Text: "var c = 3", StartLine: 5, EndLine: 5, Section: "var c = 3"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Size: tt.size}
			got := Split(KindCode, tt.text, o)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("Split mismatch (-want +got):\n%s", diff)
			}
			checkChunks(t, tt.text, o, got)
		})
	}
}

func TestSignatureTruncated(t *testing.T) {
	long := "func F(" + strings.Repeat("a int, ", 30) + ") {"
	got := Split(KindCode, long+"\n}", Options{})
	if len(got) != 1 {
		t.Fatalf("got %d chunks, want 1", len(got))
	}
	if n := len([]rune(got[0].Section)); n > maxSignature {
		t.Fatalf("section has %d runes, want at most %d", n, maxSignature)
	}
	if !strings.HasPrefix(long, got[0].Section) {
		t.Fatalf("section %q is not a prefix of the signature", got[0].Section)
	}
}

func TestCodeOversizedBlockCutsAtBlankLines(t *testing.T) {
	// One top-level block of 8 lines of 10 runes with a blank line after line 3.
	text := md("class Xyz:", "    aaaaaa", "    bbbbbb", "", "    cccccc", "    dddddd", "    eeeeee", "    ffffff")
	o := Options{Size: 50, Overlap: -1}
	got := Split(KindCode, text, o)
	checkChunks(t, text, o, got)
	var spans [][2]int
	for _, c := range got {
		spans = append(spans, [2]int{c.StartLine, c.EndLine})
		if c.Section != "class Xyz:" {
			t.Errorf("piece %d-%d section = %q, want the block's signature", c.StartLine, c.EndLine, c.Section)
		}
	}
	want := [][2]int{{1, 3}, {5, 8}}
	if diff := cmp.Diff(want, spans); diff != "" {
		t.Fatalf("pieces (-want +got):\n%s", diff)
	}
}
