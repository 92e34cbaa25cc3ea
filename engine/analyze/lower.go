package analyze

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// lower lower-cases term: ASCII terms in place, others into a copy. It
// replaces bleve's to_lower filter, whose in-place rewrite garbles a term
// when a rune's lower case is shorter than the rune ("İstanbul", the Kelvin
// sign K, the Ohm sign Ω): the bytes after it are not moved.
//
// A non-ASCII term that lower-casing would not change (Thai, Arabic,
// Devanagari and Han have no case; most lower-case words) is returned as
// it is, without the copy: bytes.ToLower would return an equal one.
func lower(term []byte) []byte {
	for _, c := range term {
		if c >= utf8.RuneSelf {
			if caseless(term) {
				return term
			}
			return bytes.ToLower(term)
		}
	}
	for i, c := range term {
		if 'A' <= c && c <= 'Z' {
			term[i] = c + 'a' - 'A'
		}
	}
	return term
}

// caseless reports whether bytes.ToLower would return term unchanged:
// valid UTF-8 (it writes U+FFFD for a bad byte) whose runes are their own
// lower case.
func caseless(term []byte) bool {
	for i := 0; i < len(term); {
		c, w := rune(term[i]), 1
		if c >= utf8.RuneSelf {
			c, w = utf8.DecodeRune(term[i:])
			if c == utf8.RuneError && w == 1 {
				return false
			}
		}
		if unicode.ToLower(c) != c {
			return false
		}
		i += w
	}
	return true
}
