package split

import (
	"unicode"
	"unicode/utf8"
)

//semguard:begin part-terms

// Cut says where a part of a change set ends: at MaxChunks chunks or
// MaxTerms terms (TermsEstimate), whichever comes first.
type Cut struct {
	MaxChunks, MaxTerms int
	chunks, terms       int // of the part so far
}

// Full counts a chunk of the given text in the part and reports whether
// that fills it; a full part starts the next.
func (c *Cut) Full(text string) bool {
	c.chunks, c.terms = c.chunks+1, c.terms+TermsEstimate(text)
	if c.chunks < c.MaxChunks && c.terms < c.MaxTerms {
		return false
	}
	c.chunks, c.terms = 0, 0
	return true
}

// TermsEstimate estimates the terms the analysis makes of text without
// running it, for cutting a change set into parts of bounded memory: one
// per run of letters or digits, and one more at each change from lower
// case to upper case or between letters and digits, where the analysis
// splits identifiers ("parseHTTP2Frame" is 4). Anything else (spaces,
// symbols, the replacement character of undecodable bytes) separates. It
// only sizes parts: what is indexed does not depend on it.
func TermsEstimate(text string) int {
	n, prev := 0, byte(0)
	for _, r := range text {
		c := charClass(r)
		if c != 0 && c != prev && (prev != classUpper || c != classLower) {
			n++
		}
		prev = c
	}
	return n
}

const (
	classLower = 1 + iota
	classUpper
	classDigit
)

// charClass is TermsEstimate's class of one character (0: a separator).
func charClass(r rune) byte {
	switch {
	case r >= 'a' && r <= 'z':
		return classLower
	case r >= 'A' && r <= 'Z':
		return classUpper
	case r >= '0' && r <= '9':
		return classDigit
	case r < utf8.RuneSelf:
		return 0
	case unicode.IsUpper(r):
		return classUpper
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return classLower
	case unicode.IsDigit(r):
		return classDigit
	}
	return 0
}

//semguard:end part-terms
