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

// foldMap is a map with lowercase keys read in any case, through a
// buffer on the stack (names longer than it are in no table). lens[c]
// has bit n set when a key of n bytes begins with c: most folder names
// (src, internal, main) are turned away without hashing.
type foldMap struct {
	m    map[string]Role
	lens [256]uint64
}

const foldMax = 32

func newFoldMap(m map[string]Role) *foldMap {
	f := &foldMap{m: m}
	for k := range m {
		if len(k) > foldMax {
			panic("rank: role table key longer than foldMax: " + k)
		}
		f.lens[k[0]] |= 1 << len(k)
	}
	return f
}

// get is m[lowercase s].
func (f *foldMap) get(s string) (Role, bool) {
	if len(s) == 0 || len(s) > foldMax || f.lens[lowerASCII(s[0])]&(1<<len(s)) == 0 {
		return "", false
	}
	var buf [foldMax]byte
	for i := 0; i < len(s); i++ {
		buf[i] = lowerASCII(s[i])
	}
	r, ok := f.m[string(buf[:len(s)])]
	return r, ok
}

// hasSeparator: s holds a _, - or . (what every affix of a role holds).
func hasSeparator(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '_' || c == '-' || c == '.' {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isLetterASCII(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
