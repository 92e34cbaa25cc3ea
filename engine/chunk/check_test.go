package chunk

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// checkChunks fails t unless got satisfies Split's guarantees for text.
func checkChunks(t testing.TB, text string, o Options, got []Chunk) {
	t.Helper()
	size := o.Normalize().Size
	lines := strings.Split(text, "\n")
	covered := make([]bool, len(lines))
	prev := Chunk{StartLine: 1, EndLine: 1}
	for i, c := range got {
		if c.StartLine < 1 || c.EndLine < c.StartLine || c.EndLine > len(lines) {
			t.Fatalf("chunk %d: bad span %d-%d of %d lines", i, c.StartLine, c.EndLine, len(lines))
		}
		if strings.TrimSpace(c.Text) == "" {
			t.Fatalf("chunk %d (%d-%d): empty or white space only: %q", i, c.StartLine, c.EndLine, c.Text)
		}
		if n := utf8.RuneCountInString(c.Text); n > size {
			t.Fatalf("chunk %d (%d-%d): %d runes > size %d", i, c.StartLine, c.EndLine, n, size)
		}
		if c.StartLine < prev.StartLine || c.EndLine < prev.EndLine {
			t.Fatalf("chunk %d (%d-%d) out of order after %d-%d", i, c.StartLine, c.EndLine, prev.StartLine, prev.EndLine)
		}
		checkSpan(t, i, c, lines, size)
		for l := c.StartLine; l <= c.EndLine; l++ {
			covered[l-1] = true
		}
		prev = c
	}
	for i, line := range lines {
		if !covered[i] && strings.TrimSpace(line) != "" {
			t.Fatalf("line %d not covered: %q", i+1, line)
		}
	}
	checkLinePieces(t, got, lines, size)
}

// checkSpan checks that c is exactly its lines, or a piece of one long line.
func checkSpan(t testing.TB, i int, c Chunk, lines []string, size int) {
	t.Helper()
	exact := strings.Join(lines[c.StartLine-1:c.EndLine], "\n")
	if c.Text == exact {
		if strings.TrimSpace(lines[c.StartLine-1]) == "" || strings.TrimSpace(lines[c.EndLine-1]) == "" {
			t.Fatalf("chunk %d (%d-%d) starts or ends with a blank line", i, c.StartLine, c.EndLine)
		}
		return
	}
	line := lines[c.StartLine-1]
	switch {
	case c.StartLine != c.EndLine:
		t.Fatalf("chunk %d (%d-%d): text is not its lines:\n got %q\nwant %q", i, c.StartLine, c.EndLine, c.Text, exact)
	case utf8.RuneCountInString(line) <= size:
		t.Fatalf("chunk %d (line %d): piece of a line that fits the size: %q", i, c.StartLine, c.Text)
	case !strings.Contains(line, c.Text):
		t.Fatalf("chunk %d (line %d): piece %q is not in its line", i, c.StartLine, c.Text)
	case strings.TrimFunc(c.Text, unicode.IsSpace) != c.Text:
		t.Fatalf("chunk %d (line %d): piece has surrounding white space: %q", i, c.StartLine, c.Text)
	}
}

// checkLinePieces checks that the pieces of each long line start at its
// start, end at its end and hold at least all its non-space runes.
func checkLinePieces(t testing.TB, got []Chunk, lines []string, size int) {
	t.Helper()
	for i := 0; i < len(got); {
		c := got[i]
		line := lines[c.StartLine-1]
		if c.StartLine != c.EndLine || utf8.RuneCountInString(line) <= size {
			i++
			continue
		}
		j, total := i, 0
		for j < len(got) && got[j].StartLine == c.StartLine && got[j].EndLine == c.StartLine {
			total += utf8.RuneCountInString(got[j].Text)
			j++
		}
		trimmed := strings.TrimFunc(line, unicode.IsSpace)
		if !strings.HasPrefix(trimmed, got[i].Text) || !strings.HasSuffix(trimmed, got[j-1].Text) {
			t.Fatalf("line %d: pieces do not start and end with the line", c.StartLine)
		}
		if want := nonSpaceRunes(line); total < want {
			t.Fatalf("line %d: pieces hold %d runes, line has %d non-space runes", c.StartLine, total, want)
		}
		i = j
	}
}

func nonSpaceRunes(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}
