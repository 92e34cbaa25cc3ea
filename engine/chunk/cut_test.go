package chunk

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestSplitEmpty(t *testing.T) {
	for _, kind := range []string{KindMarkdown, KindCode, KindText, "unknown"} {
		for _, text := range []string{"", "\n", "  \n\t\n\r\n", "\u00a0\u2003"} {
			if got := Split(kind, text, Options{}); got != nil {
				t.Errorf("Split(%q, %q) = %+v, want nil", kind, text, got)
			}
		}
	}
}

func TestSplitTextParagraphs(t *testing.T) {
	text := md("one two", "three", "", "", "four five", "", "six")
	got := Split(KindText, text, Options{Size: 25})
	want := []Chunk{
		{Text: md("one two", "three", "", "", "four five"), StartLine: 1, EndLine: 5},
		{Text: "six", StartLine: 7, EndLine: 7},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Split mismatch (-want +got):\n%s", diff)
	}
}

func TestCutLinesWithOverlap(t *testing.T) {
	var lines []string
	for i := range 10 {
		lines = append(lines, fmt.Sprintf("line %04d.", i+1)) // 10 runes
	}
	text := md(lines...)
	o := Options{Size: 35, Overlap: 11}
	got := Split(KindText, text, o)
	checkChunks(t, text, o, got)
	var spans [][2]int
	for _, c := range got {
		spans = append(spans, [2]int{c.StartLine, c.EndLine})
	}
	want := [][2]int{{1, 3}, {3, 5}, {5, 7}, {7, 9}, {9, 10}}
	if diff := cmp.Diff(want, spans); diff != "" {
		t.Fatalf("pieces (-want +got):\n%s", diff)
	}
}

func TestCutLongLineHard(t *testing.T) {
	text := "abcdefghijklmnopqrstuvwxyz"
	o := Options{Size: 10, Overlap: 3}
	got := Split(KindText, text, o)
	checkChunks(t, text, o, got)
	var texts []string
	for _, c := range got {
		texts = append(texts, c.Text)
	}
	want := []string{"abcdefghij", "hijklmnopq", "opqrstuvwx", "vwxyz"}
	if diff := cmp.Diff(want, texts); diff != "" {
		t.Fatalf("pieces (-want +got):\n%s", diff)
	}
}

func TestCutLongLineAtWords(t *testing.T) {
	var words []string
	for i := range 200 {
		words = append(words, fmt.Sprintf("w%03d", i))
	}
	line := strings.Join(words, " ")
	text := "short first line\n" + line + "\nshort last line"
	o := Options{Size: 100, Overlap: 20}
	got := Split(KindText, text, o)
	checkChunks(t, text, o, got)
	seen := map[string]bool{}
	for i, c := range got {
		if c.StartLine != 2 {
			continue
		}
		fields := strings.Fields(c.Text)
		for _, w := range fields {
			if len(w) != 4 {
				t.Fatalf("piece %d cuts a word: %q", i, c.Text)
			}
			seen[w] = true
		}
		if i > 1 && !strings.Contains(got[i-1].Text, fields[0]) {
			t.Errorf("piece %d does not start with words of the previous piece (overlap): %q", i, c.Text)
		}
	}
	for _, w := range words {
		if !seen[w] {
			t.Fatalf("word %q missing from the pieces", w)
		}
	}
	if got[0].Text != "short first line" || got[len(got)-1].Text != "short last line" {
		t.Fatalf("neighbouring lines are not chunks of their own: %q, %q", got[0].Text, got[len(got)-1].Text)
	}
}

func TestCutMultibyteRunes(t *testing.T) {
	text := strings.Repeat("日本語", 50) // 150 runes, no spaces
	o := Options{Size: 40, Overlap: 5}
	got := Split(KindText, text, o)
	checkChunks(t, text, o, got)
	for _, c := range got {
		if !utf8.ValidString(c.Text) {
			t.Fatalf("piece cut inside a rune: %q", c.Text)
		}
	}
}

func TestSplitTinySizes(t *testing.T) {
	text := md("# Heading here", "", "Some words in a paragraph.", "", "```", "code", "```", strings.Repeat("x", 50))
	for _, o := range []Options{
		{Size: 1, Overlap: 1},
		{Size: 2, Overlap: 100},
		{Size: 10, Overlap: 10},
		{Size: 10, Overlap: 9},
		{Size: 3, Overlap: -7},
	} {
		for _, kind := range []string{KindMarkdown, KindCode, KindText} {
			got := Split(kind, text, o)
			checkChunks(t, text, o, got)
			if len(got) == 0 {
				t.Fatalf("Split(%s, %+v) returned no chunks", kind, o)
			}
		}
	}
}

func TestSplitOneMegabyteLine(t *testing.T) {
	word := "lorem ipsum dolor sit amet "
	spaced := strings.Repeat(word, 1<<20/len(word))
	solid := strings.Repeat("0123456789abcdef", 1<<16)
	for name, text := range map[string]string{"spaced": spaced, "solid": solid} {
		t.Run(name, func(t *testing.T) {
			o := Options{}
			got := Split(KindMarkdown, text, o)
			n := o.Normalize()
			if min := len(text) / n.Size; len(got) < min {
				t.Fatalf("got %d pieces, want at least %d", len(got), min)
			}
			total := 0
			for _, c := range got {
				r := utf8.RuneCountInString(c.Text)
				if r > n.Size || c.StartLine != 1 || c.EndLine != 1 {
					t.Fatalf("bad piece: %d runes, lines %d-%d", r, c.StartLine, c.EndLine)
				}
				total += r
			}
			if total < nonSpaceRunes(text) || total > 2*len(text) {
				t.Fatalf("pieces hold %d runes for a %d-byte line", total, len(text))
			}
			if !strings.HasPrefix(text, got[0].Text) || !strings.HasSuffix(strings.TrimSpace(text), got[len(got)-1].Text) {
				t.Fatal("pieces do not start and end with the line")
			}
		})
	}
}

func TestSplitDeterministic(t *testing.T) {
	text := md("# A", "", "para one", "", "## B", strings.Repeat("word ", 300))
	o := Options{Size: 200, Overlap: 30}
	first := Split(KindMarkdown, text, o)
	for range 5 {
		if diff := cmp.Diff(first, Split(KindMarkdown, text, o)); diff != "" {
			t.Fatalf("Split is not deterministic:\n%s", diff)
		}
	}
}
