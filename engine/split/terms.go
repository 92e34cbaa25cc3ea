package split

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
// splits identifiers ("parseHTTP2Frame" is 4). Bytes past ASCII count as
// lower-case letters. It only sizes parts: what is indexed does not
// depend on it.
func TermsEstimate(text string) int {
	n, prev := 0, byte(0)
	for i := 0; i < len(text); i++ {
		c := charClass(text[i])
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

// charClass is TermsEstimate's class of one byte (0: a separator).
func charClass(b byte) byte {
	switch {
	case b >= 'a' && b <= 'z', b >= 0x80:
		return classLower
	case b >= 'A' && b <= 'Z':
		return classUpper
	case b >= '0' && b <= '9':
		return classDigit
	}
	return 0
}

//semguard:end part-terms
