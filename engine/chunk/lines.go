package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lines indexes the lines of a text: byte offsets, rune counts and blankness,
// so that the rune length of any span of lines costs O(1).
type lines struct {
	text  string
	start []int  // byte offset where line i starts
	runes []int  // runes[i] is the number of runes in lines [0, i)
	blank []bool // line i holds only white space
}

// newLines indexes text. Lines are separated by '\n'; a '\r' before it stays
// part of the line (and counts as white space for blankness).
func newLines(text string) *lines {
	n := strings.Count(text, "\n") + 1
	l := &lines{
		text:  text,
		start: make([]int, 0, n),
		runes: make([]int, 1, n+1),
		blank: make([]bool, 0, n),
	}
	for pos := 0; ; {
		i := strings.IndexByte(text[pos:], '\n')
		end := len(text)
		if i >= 0 {
			end = pos + i
		}
		l.add(pos, end)
		if i < 0 {
			return l
		}
		pos = end + 1
	}
}

func (l *lines) add(start, end int) {
	s := l.text[start:end]
	l.start = append(l.start, start)
	l.runes = append(l.runes, l.runes[len(l.runes)-1]+utf8.RuneCountInString(s))
	l.blank = append(l.blank, isBlank(s))
}

// count returns the number of lines.
func (l *lines) count() int { return len(l.start) }

// end returns the byte offset where line i ends, excluding the '\n'.
func (l *lines) end(i int) int {
	if i+1 < len(l.start) {
		return l.start[i+1] - 1
	}
	return len(l.text)
}

// line returns line i without its '\n'.
func (l *lines) line(i int) string { return l.text[l.start[i]:l.end(i)] }

// lineRunes returns the rune length of line i.
func (l *lines) lineRunes(i int) int { return l.runes[i+1] - l.runes[i] }

// spanRunes returns the rune length of lines s..e (inclusive) joined by '\n'.
func (l *lines) spanRunes(s, e int) int { return l.runes[e+1] - l.runes[s] + e - s }

// span returns the text of lines s..e (inclusive), a substring of the input.
func (l *lines) span(s, e int) string { return l.text[l.start[s]:l.end(e)] }

// nextNonBlank returns the first non-blank line in i..last, or -1.
func (l *lines) nextNonBlank(i, last int) int {
	for ; i <= last; i++ {
		if !l.blank[i] {
			return i
		}
	}
	return -1
}

// prevNonBlank returns the last non-blank line in first..i, or -1.
func (l *lines) prevNonBlank(i, first int) int {
	for ; i >= first; i-- {
		if !l.blank[i] {
			return i
		}
	}
	return -1
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return strings.TrimFunc(s[i:], unicode.IsSpace) == ""
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f' {
			return false
		}
	}
	return true
}

// sub returns lines from..to-1 as their own lines value (0-based within it).
func (l *lines) sub(from, to int) *lines {
	if from >= to {
		return newLines("")
	}
	return newLines(l.text[l.start[from]:l.end(to-1)])
}

// trim narrows the line range s..e to its first and last non-blank lines
// (s > e when all are blank).
func (l *lines) trim(s, e int) (int, int) {
	for s <= e && l.blank[s] {
		s++
	}
	for e >= s && l.blank[e] {
		e--
	}
	return s, e
}
