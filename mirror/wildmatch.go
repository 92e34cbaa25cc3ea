package mirror

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Results of dowild, as in git's wildmatch.c: the abort values let callers
// stop backtracking early.
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch matches text against a gitignore glob with git's WM_PATHNAME
// semantics: '*' and '?' and classes never match '/', "**" between slashes
// (or at either end) matches any number of directories. Unlike git, '?' and
// classes match a whole UTF-8 character rather than one byte.
func wildmatch(pattern, text string) bool {
	return dowild(pattern, text) == wmMatch
}

func dowild(p, text string) int {
	pi, ti := 0, 0
	for pi < len(p) {
		pc := p[pi]
		if ti >= len(text) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '*':
			return matchStar(p, pi, text, ti)
		case '?':
			if text[ti] == '/' {
				return wmNoMatch
			}
			_, n := utf8.DecodeRuneInString(text[ti:])
			ti += n
			pi++
		case '[':
			r, n := utf8.DecodeRuneInString(text[ti:])
			next, res := matchClass(p, pi+1, r)
			if res != wmMatch {
				return res
			}
			pi, ti = next, ti+n
		case '\\':
			pi++
			if pi >= len(p) || text[ti] != p[pi] {
				return wmNoMatch
			}
			pi++
			ti++
		default:
			if text[ti] != pc {
				return wmNoMatch
			}
			pi++
			ti++
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// matchStar handles a '*' or "**" at p[pi] against text[ti:].
func matchStar(p string, pi int, text string, ti int) int {
	pi++
	matchSlash := false
	if pi < len(p) && p[pi] == '*' {
		before := pi - 2
		for pi < len(p) && p[pi] == '*' {
			pi++
		}
		if (before < 0 || p[before] == '/') &&
			(pi == len(p) || p[pi] == '/' || strings.HasPrefix(p[pi:], `\/`)) {
			// "**/" may match no directory at all: try that first.
			if pi < len(p) && p[pi] == '/' && dowild(p[pi+1:], text[ti:]) == wmMatch {
				return wmMatch
			}
			matchSlash = true
		}
	}
	if pi == len(p) {
		// Trailing "**" matches everything; trailing "*" only up to a slash.
		if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
			return wmNoMatch
		}
		return wmMatch
	}
	if !matchSlash && p[pi] == '/' {
		// One '*' followed by '/' matches exactly the next path component.
		slash := strings.IndexByte(text[ti:], '/')
		if slash < 0 {
			return wmNoMatch
		}
		return dowild(p[pi+1:], text[ti+slash+1:])
	}
	return starLoop(p[pi:], text, ti, matchSlash)
}

// starLoop tries every split point for a '*' followed by the pattern p.
func starLoop(p, text string, ti int, matchSlash bool) int {
	for ti < len(text) {
		if !isGlobSpecial(p[0]) {
			// Skip ahead to the next occurrence of the literal that follows.
			for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != p[0] {
				ti++
			}
			if ti >= len(text) || text[ti] != p[0] {
				return wmNoMatch
			}
		}
		m := dowild(p, text[ti:])
		if m != wmNoMatch {
			if !matchSlash || m != wmAbortToStarStar {
				return m
			}
		} else if !matchSlash && text[ti] == '/' {
			return wmAbortToStarStar
		}
		_, n := utf8.DecodeRuneInString(text[ti:])
		ti += n
	}
	return wmAbortAll
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// matchClass matches r against the bracket expression starting at p[pi]
// (just after '['). It returns the index after the closing ']' and wmMatch,
// or the failure result.
func matchClass(p string, pi int, r rune) (int, int) {
	if pi >= len(p) {
		return 0, wmAbortAll
	}
	negated := p[pi] == '!' || p[pi] == '^'
	if negated {
		pi++
	}
	matched := false
	prev := rune(-1)
	for first := true; ; first = false {
		if pi >= len(p) {
			return 0, wmAbortAll
		}
		pc, n := utf8.DecodeRuneInString(p[pi:])
		if pc == ']' && !first {
			break
		}
		switch {
		case pc == '\\':
			pi++
			if pi >= len(p) {
				return 0, wmAbortAll
			}
			pc, n = utf8.DecodeRuneInString(p[pi:])
			matched = matched || r == pc
			pi, prev = pi+n, pc
		case pc == '-' && prev >= 0 && pi+1 < len(p) && p[pi+1] != ']':
			pi++
			if p[pi] == '\\' {
				if pi++; pi >= len(p) {
					return 0, wmAbortAll
				}
			}
			hi, hn := utf8.DecodeRuneInString(p[pi:])
			matched = matched || (r >= prev && r <= hi)
			pi, prev = pi+hn, -1
		case pc == '[' && pi+1 < len(p) && p[pi+1] == ':':
			next, ok, res := matchNamedClass(p, pi, r)
			if res != wmMatch {
				return 0, res
			}
			if next < 0 { // no ":]": a literal '['
				matched = matched || r == '['
				pi, prev = pi+1, '['
				continue
			}
			matched = matched || ok
			pi, prev = next, -1
		default:
			matched = matched || r == pc
			pi, prev = pi+n, pc
		}
	}
	if matched == negated || r == '/' {
		return 0, wmNoMatch
	}
	return pi + 1, wmMatch
}

// matchNamedClass handles "[:name:]" at p[pi]. next is -1 when the text is
// not a class name after all (git then treats '[' literally).
func matchNamedClass(p string, pi int, r rune) (next int, ok bool, res int) {
	start := pi + 2
	end := strings.IndexByte(p[start:], ']')
	if end < 0 {
		return 0, false, wmAbortAll
	}
	end += start
	if end-1 < start || p[end-1] != ':' {
		return -1, false, wmMatch
	}
	ok, known := namedClass(p[start:end-1], r)
	if !known {
		return 0, false, wmAbortAll
	}
	return end + 1, ok, wmMatch
}

// namedClass evaluates a POSIX character class for r.
func namedClass(name string, r rune) (ok, known bool) {
	switch name {
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r), true
	case "alpha":
		return unicode.IsLetter(r), true
	case "blank":
		return r == ' ' || r == '\t', true
	case "cntrl":
		return unicode.IsControl(r), true
	case "digit":
		return r >= '0' && r <= '9', true
	case "graph":
		return unicode.IsGraphic(r) && !unicode.IsSpace(r), true
	case "lower":
		return unicode.IsLower(r), true
	case "print":
		return unicode.IsPrint(r), true
	case "punct":
		return unicode.IsPunct(r) || unicode.IsSymbol(r), true
	case "space":
		return unicode.IsSpace(r), true
	case "upper":
		return unicode.IsUpper(r), true
	case "xdigit":
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F', true
	}
	return false, false
}
