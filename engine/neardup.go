package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// collapseKey is what two passages must share to collapse into one result:
// their text with every run of white space read as one space (and none at
// either end), and every version number read as the same one. A version
// number is a word made of digits and at least one dot between digits,
// optionally after a "v" ("1.2", "v3.10.1", "10.0.0.1"), standing alone:
// "python3.11" and "x1.2" are not. So a passage copied into the folder of
// each product version, with its version numbers and line breaks changed,
// is one answer; "v2" (no dot) and any other difference in wording keep
// passages apart.
func collapseKey(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	space, wrote := false, false
	prev := rune(' ') // what precedes text[i]: a version must start a word
	for i := 0; i < len(text); {
		c, w := rune(text[i]), 1
		if c >= utf8.RuneSelf {
			c, w = utf8.DecodeRuneInString(text[i:])
		}
		if isSpace(c) {
			space, prev = true, c
			i += w
			continue
		}
		if space && wrote {
			b.WriteByte(' ')
		}
		space, wrote = false, true
		if !isWordRune(prev) {
			if n := versionAt(text[i:]); n > 0 {
				b.WriteString("\x00version")
				i += n
				prev = '0'
				continue
			}
		}
		if w == 1 {
			b.WriteByte(byte(c))
		} else {
			b.WriteString(text[i : i+w])
		}
		prev = c
		i += w
	}
	return b.String()
}

// versionAt is the length of the version number s starts with, or 0.
func versionAt(s string) int {
	i := 0
	if i < len(s) && (s[i] == 'v' || s[i] == 'V') {
		i++
	}
	dots := 0
	for {
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == start {
			return 0 // a dot (or the start) not followed by a digit
		}
		if i+1 < len(s) && s[i] == '.' && '0' <= s[i+1] && s[i+1] <= '9' {
			i++
			dots++
			continue
		}
		break
	}
	if dots == 0 {
		return 0
	}
	if r, _ := utf8.DecodeRuneInString(s[i:]); i < len(s) && isWordRune(r) {
		return 0 // "1.2.3rc1", "1.2abc": part of a longer word
	}
	return i
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r'
	}
	return unicode.IsSpace(r)
}
