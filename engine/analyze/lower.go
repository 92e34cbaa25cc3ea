package analyze

import (
	"bytes"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
)

// lowerFilter lower-cases terms. It replaces bleve's to_lower filter, whose
// in-place rewrite garbles a term when a rune's lower case is shorter than
// the rune ("İstanbul", the Kelvin sign K, the Ohm sign Ω): the bytes after
// it are not moved. ASCII terms are lowered in place; others are copied.
type lowerFilter struct{}

var _ analysis.TokenFilter = lowerFilter{}

// Filter implements analysis.TokenFilter.
func (lowerFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	for _, tok := range input {
		tok.Term = lower(tok.Term)
	}
	return input
}

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
