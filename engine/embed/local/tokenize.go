package local

import (
	"unicode"
	"unicode/utf8"
)

// A token is a maximal run of Unicode letters and digits, lower-cased.
// Its cuts are the byte offsets (into the lower-case form) where the
// original spelling marks a word boundary inside it: "getUserName" has cuts
// before "user" and "name", "HTTPServer" before "server", "sha256" before
// "256". snake_case, dotted.names and kebab-case need no cuts: "_", "." and
// "-" already end a token.

// nextToken finds the first token of text at or after offset i, leaves
// it in s.buf and s.cuts, and returns the offset just past it; -1 when there
// is none. The buffers are reused by the next call.
func (s *scratch) nextToken(text string, i int) int {
	for i < len(text) {
		r, n := decode(text, i)
		if isWordRune(r) {
			return s.scanToken(text, i)
		}
		i += n
	}
	return -1
}

// scanToken lower-cases the token starting at i into s.buf, records its
// cuts in s.cuts and returns the offset just past it.
func (s *scratch) scanToken(text string, i int) int {
	s.buf, s.cuts = s.buf[:0], s.cuts[:0]
	// A window of four runes, each decoded once: prev, r (at i), next, after.
	var prev rune = -1
	r, n := decode(text, i)
	next, nn := decode(text, i+n)
	for isWordRune(r) {
		after, an := decode(text, i+n+nn)
		if prev >= 0 && isCut(prev, r, next, after) {
			s.cuts = append(s.cuts, len(s.buf))
		}
		switch {
		case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
			s.buf = append(s.buf, byte(r))
		case 'A' <= r && r <= 'Z':
			s.buf = append(s.buf, byte(r+'a'-'A'))
		default:
			s.buf = utf8.AppendRune(s.buf, unicode.ToLower(r))
		}
		prev, i = r, i+n
		r, n, next, nn = next, nn, after, an
	}
	return i
}

// isCut reports a word boundary between prev and r (next and after follow
// r; -1 past the end): lower→upper ("getUser"), the last capital of an
// acronym before a lower-case letter ("HTTPServer"), unless that letter is
// a plural "s" ending the token ("IDs"), and letter↔digit ("sha256").
func isCut(prev, r, next, after rune) bool {
	if 'a' <= r && r <= 'z' && 'a' <= prev && prev <= 'z' {
		return false // the common case
	}
	pd, rd := isDigit(prev), isDigit(r)
	if pd != rd {
		return true
	}
	if pd {
		return false
	}
	if isUpper(r) {
		plural := next == 's' && !isWordRune(after)
		return isLower(prev) || (isUpper(prev) && isLower(next) && !plural)
	}
	return false
}

func decode(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsDigit(r)
}

func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.IsLower(r)
}
