package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxSignature is the longest code section label, in runes.
const maxSignature = 120

// codeBlocks cuts source code into top-level blocks: a non-blank line that
// starts at column 0 right after a blank line starts a new block, so a
// function with its doc comment and the blank lines inside its body stays
// together. Each block carries its signature.
func codeBlocks(l *lines) []block {
	var out []block
	for i := 0; i < l.count(); i++ {
		if l.blank[i] {
			continue
		}
		start, end := i, i
		for i+1 < l.count() && !startsCodeBlock(l, i+1) {
			i++
			if !l.blank[i] {
				end = i
			}
		}
		b := block{start: start, end: end}
		b.sig = signature(l, b)
		out = append(out, b)
	}
	return out
}

// startsCodeBlock reports whether line i opens a new top-level block.
func startsCodeBlock(l *lines, i int) bool {
	if l.blank[i] || !l.blank[i-1] {
		return false
	}
	return !startsWithSpace(l.line(i))
}

// signature labels a code block with its first column-0 line that is not a
// comment, an attribute or a decorator (falling back to its first line),
// without a trailing '{' and cut to maxSignature runes: "func Parse(path
// string) error", "class Store:", "pub struct Config".
func signature(l *lines, b block) string {
	label := ""
	for i := b.start; i <= b.end; i++ {
		line := l.line(i)
		if l.blank[i] || startsWithSpace(line) {
			continue
		}
		if label == "" {
			label = line
		}
		if !isCommentLike(line) {
			label = line
			break
		}
	}
	if label == "" {
		label = l.line(b.start)
	}
	return cleanSignature(label)
}

func startsWithSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// commentPrefixes start lines that describe a declaration rather than name
// it, across common languages.
var commentPrefixes = [...]string{"//", "/*", "*", "#", "--", ";", "<!--", "@", `"""`, "'''", "%"}

func isCommentLike(line string) bool {
	for _, p := range commentPrefixes {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

func cleanSignature(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimSuffix(s, "{"))
	n := 0
	for i := range s {
		if n == maxSignature {
			return strings.TrimSpace(s[:i])
		}
		n++
	}
	return s
}
