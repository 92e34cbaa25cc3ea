package analyze

import (
	"bytes"
	"unicode/utf8"
)

// lower lower-cases term: ASCII terms in place, others into a copy. It
// replaces bleve's to_lower filter, whose in-place rewrite garbles a term
// when a rune's lower case is shorter than the rune ("İstanbul", the Kelvin
// sign K, the Ohm sign Ω): the bytes after it are not moved.
func lower(term []byte) []byte {
	for _, c := range term {
		if c >= utf8.RuneSelf {
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
