package analyze

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// Identifier splitting, step 2 of the chain (see the package
// documentation): an AlphaNumeric token is cut into its words
// (appendIdentParts, or appendIdentPartsASCII for ASCII terms), and the
// analyzer (chain.go) emits the parts after the whole token, at consecutive
// positions. "getUserName" gives getUserName, get, User, Name; "foo_bar.baz"
// gives foo_bar.baz, foo, bar, baz; "HTTPServer" gives HTTPServer, HTTP,
// Server; "utf8Decode" gives utf8Decode, utf8, Decode. Numbers ("3.14",
// "1,000") and ideographic tokens are never split. The step also folds
// typographic apostrophes (’ and ＇) to ' so "don’t" meets the stop list, and
// drops terms longer than MaxTermBytes (measured before lower-casing and
// stemming). identFilter (reference_test.go) is the same step as a bleve
// token filter, the reference the analyzer is tested against.

// span is a part of a token: byte offsets into its term.
type span struct{ start, end int }

// mayNeedSplit is a fast check: ASCII lowercase words (most of prose) cannot
// split.
func mayNeedSplit(term []byte) bool {
	for _, c := range term {
		if c >= utf8.RuneSelf || c < 'a' || c > 'z' {
			if c != '\'' {
				return true
			}
		}
	}
	return false
}

// appendIdentParts appends the words of term to parts. Separators are
// runes other than letters, digits, marks and apostrophes ('_', '.', ':',
// '-', ...). Inside a word, a new part starts at an upper-case letter that
// follows a lower-case letter or a digit ("getUser", "utf8Decode"), and at
// the last upper-case letter of a run followed by a lower-case one
// ("HTTPServer"), except for a plural "s" ("userIDs" stays user, IDs).
// Digits stay with the letters before them ("utf8", "sha256", "int64").
// Apostrophes at the edges of a part are dropped.
func appendIdentParts(parts []span, term []byte) []span {
	start := -1
	var prev, prev2 rune // the two previous runes of the current part
	for i := 0; i < len(term); {
		r, w := utf8.DecodeRune(term[i:])
		if !isWordRune(r) {
			parts = appendSpan(parts, term, start, i)
			start, prev, prev2 = -1, 0, 0
			i += w
			continue
		}
		if start >= 0 && caseBoundary(prev2, prev, r, term[i+w:]) {
			cut := i
			if unicode.IsUpper(prev) && unicode.IsLower(r) {
				cut = i - utf8.RuneLen(prev) // "HTTPServer": the S starts the part
			}
			parts = appendSpan(parts, term, start, cut)
			start = cut
		}
		if start < 0 {
			start = i
		}
		prev2, prev = prev, r
		i += w
	}
	return appendSpan(parts, term, start, len(term))
}

// caseBoundary reports whether a part ends before r (or, for an acronym run
// followed by a lower-case letter, before prev).
func caseBoundary(prev2, prev, r rune, rest []byte) bool {
	switch {
	case unicode.IsUpper(r):
		return unicode.IsLower(prev) || unicode.IsDigit(prev)
	case unicode.IsLower(r):
		return unicode.IsUpper(prev) && unicode.IsUpper(prev2) && !pluralS(r, rest)
	}
	return false
}

// pluralS reports whether r is a final "s" ("IDs", "URLs").
func pluralS(r rune, rest []byte) bool {
	if r != 's' {
		return false
	}
	next, _ := utf8.DecodeRune(rest)
	return len(rest) == 0 || !unicode.IsLower(next)
}

// appendSpan appends term[start:end] without apostrophes at its edges,
// unless that leaves nothing.
func appendSpan(parts []span, term []byte, start, end int) []span {
	if start < 0 {
		return parts
	}
	for start < end {
		r, w := utf8.DecodeRune(term[start:end])
		if !isApostrophe(r) {
			break
		}
		start += w
	}
	for start < end {
		r, w := utf8.DecodeLastRune(term[start:end])
		if !isApostrophe(r) {
			break
		}
		end -= w
	}
	if end <= start {
		return parts
	}
	return append(parts, span{start, end})
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) ||
		unicode.Is(unicode.Mc, r) || isApostrophe(r)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' || r == '＇' }

func hasTypographicApostrophe(term []byte) bool {
	return bytes.ContainsRune(term, '’') || bytes.ContainsRune(term, '＇')
}

// foldApostrophes returns term with ’ and ＇ replaced by ', copying only
// when there is one.
func foldApostrophes(term []byte) []byte {
	if !hasTypographicApostrophe(term) {
		return term
	}
	term = bytes.ReplaceAll(term, []byte("’"), []byte("'"))
	return bytes.ReplaceAll(term, []byte("＇"), []byte("'"))
}

// appendIdentPartsASCII is appendIdentParts for an ASCII term, with byte
// tests in place of the unicode ones (over ASCII, IsLetter, IsUpper,
// IsLower and IsDigit are these ranges and no byte is a mark).
// TestIdentPartsASCII checks the two agree.
func appendIdentPartsASCII(parts []span, term []byte) []span {
	start := -1
	var prev, prev2 byte // the two previous bytes of the current part
	for i := 0; i < len(term); i++ {
		c := term[i]
		if !isUpperASCII(c) && !isLowerASCII(c) && !isDigitASCII(c) && c != '\'' {
			parts = appendSpanASCII(parts, term, start, i)
			start, prev, prev2 = -1, 0, 0
			continue
		}
		if start >= 0 {
			var cut bool
			switch {
			case isUpperASCII(c):
				cut = isLowerASCII(prev) || isDigitASCII(prev)
			case isLowerASCII(c):
				plural := c == 's' && (i+1 == len(term) || !isLowerASCII(term[i+1]))
				cut = isUpperASCII(prev) && isUpperASCII(prev2) && !plural
			}
			if cut {
				at := i
				if isUpperASCII(prev) && isLowerASCII(c) {
					at = i - 1 // "HTTPServer": the S starts the part
				}
				parts = appendSpanASCII(parts, term, start, at)
				start = at
			}
		}
		if start < 0 {
			start = i
		}
		prev2, prev = prev, c
	}
	return appendSpanASCII(parts, term, start, len(term))
}

// appendSpanASCII is appendSpan for an ASCII term.
func appendSpanASCII(parts []span, term []byte, start, end int) []span {
	if start < 0 {
		return parts
	}
	for start < end && term[start] == '\'' {
		start++
	}
	for start < end && term[end-1] == '\'' {
		end--
	}
	if end <= start {
		return parts
	}
	return append(parts, span{start, end})
}

func isUpperASCII(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLowerASCII(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigitASCII(c byte) bool { return '0' <= c && c <= '9' }
