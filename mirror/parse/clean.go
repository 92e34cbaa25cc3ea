package parse

import (
	"strings"
)

// JoinHyphens joins the words a typesetter broke at a line end: a soft
// hyphen (U+00AD), or U+0002 (PDFium's mark of a hyphen it found at a
// line end), is dropped together with a line end right after it, so
// "ef\u0002\nfects" and "ef\u00adfects" become "effects". A hyphen the text
// really has ("well-known") is kept.
func JoinHyphens(s string) string {
	if !strings.ContainsRune(s, '\x02') && !strings.ContainsRune(s, '\u00ad') {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		n := 0
		switch {
		case s[i] == '\x02':
			n = 1
		case strings.HasPrefix(s[i:], "\u00ad"):
			n = len("\u00ad")
		}
		if n == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		i += n
		for _, eol := range []string{"\r\n", "\n", "\r"} {
			if strings.HasPrefix(s[i:], eol) {
				i += len(eol)
				break
			}
		}
	}
	return b.String()
}

// DropControls removes the control characters of s that no text means to
// show: C0 controls but tab and line feed, DEL and the C1 controls; a
// vertical tab or a form feed becomes a space, a carriage return a line
// feed (so no line appears or vanishes). Soft hyphens go too: they only
// say where a word may break.
func DropControls(s string) string {
	if !hasControl(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n':
			return r
		case r == '\v' || r == '\f':
			return ' '
		case r == '\r':
			return '\n'
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == '\u00ad':
			return -1
		}
		return r
	}, s)
}

// hasControl reports whether s holds a byte DropControls would change
// (the C1 controls and U+00AD all start with 0xC2 in UTF-8).
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			return true
		}
		if c == 0xc2 && i+1 < len(s) && (s[i+1] >= 0x80 && s[i+1] <= 0x9f || s[i+1] == 0xad) {
			return true
		}
	}
	return false
}
