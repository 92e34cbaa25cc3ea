package rank

// Case-insensitive comparisons of ASCII names that do not allocate: the
// role of a path (FileRole) is read once per file of every code query's
// window. lower is always lowercase.

// equalFold: s is lower in any case.
func equalFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lowerASCII(s[i]) != lower[i] {
			return false
		}
	}
	return true
}

func hasPrefixFold(s, lower string) bool {
	return len(s) >= len(lower) && equalFold(s[:len(lower)], lower)
}

func hasSuffixFold(s, lower string) bool {
	return len(s) >= len(lower) && equalFold(s[len(s)-len(lower):], lower)
}

// oneOfFold: s is one of lowers in any case.
func oneOfFold(s string, lowers ...string) bool {
	for _, l := range lowers {
		if equalFold(s, l) {
			return true
		}
	}
	return false
}

// hasWordPrefixFold: s is one of words, or begins with one followed by
// something other than a letter (CHANGELOG-1.x, LICENSE-MIT; not
// newsletter).
func hasWordPrefixFold(s string, words []string) bool {
	for _, w := range words {
		if hasPrefixFold(s, w) && (len(s) == len(w) || !isLetterASCII(s[len(w)])) {
			return true
		}
	}
	return false
}

// lookupFold is m[lowercase s] (the keys of m are lowercase), through a
// buffer on the stack: names longer than it are in no table.
func lookupFold(m map[string]Role, s string) (Role, bool) {
	var buf [32]byte
	if len(s) > len(buf) {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		buf[i] = lowerASCII(s[i])
	}
	r, ok := m[string(buf[:len(s)])]
	return r, ok
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isLetterASCII(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
