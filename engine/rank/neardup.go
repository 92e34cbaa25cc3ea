package rank

import (
	"hash/maphash"
	"unicode"
	"unicode/utf8"
)

// collapseKey is what two passages must share to collapse into one result:
// their text with every run of white space read as one space (and none at
// either end), and every version number read as the same one. A version
// number is a word made of digits and at least one dot between digits,
// optionally after a "v" ("1.2", "v3.10.1", "10.0.0.1"), standing alone:
// "python3.11" and "x1.2" are not. So a passage copied into the folder of
// each product version, with its version numbers and line breaks changed,
// is one answer; "v2" (no dot) and any other difference in wording keep
// passages apart.
func collapseKey(text string) string { return string(appendCollapseKey(nil, text, -1)) }

// versionMark stands for any version number in a key.
const versionMark = "\x00version"

// appendCollapseKey appends the collapseKey of text to dst, or its first
// limit bytes when limit >= 0. Runs of ASCII that need no change are
// copied whole.
func appendCollapseKey(dst []byte, text string, limit int) []byte {
	end := len(dst) + limit
	if limit < 0 {
		end = -1
	}
	space, wrote := false, false
	prevWord := false // a version must start a word
	for i := 0; i < len(text); {
		if end >= 0 && len(dst) >= end {
			return dst[:end]
		}
		start := i
		for i < len(text) {
			c := text[i]
			if c >= utf8.RuneSelf {
				break
			}
			k := asciiClass[c]
			if k == classSpace || k == classVersion && !prevWord {
				break
			}
			prevWord = k != classPunct
			i++
		}
		if i > start {
			if space && wrote {
				dst = append(dst, ' ')
			}
			space, wrote = false, true
			if end >= 0 && len(dst)+i-start >= end {
				return append(dst, text[start:start+end-len(dst)]...)
			}
			dst = append(dst, text[start:i]...)
			continue
		}
		// text[i] is white space, a possible version or not ASCII.
		r, w := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(text[i:])
		}
		if r < utf8.RuneSelf && asciiClass[r] == classSpace || r >= utf8.RuneSelf && unicode.IsSpace(r) {
			space, prevWord = true, false
			i += w
			continue
		}
		if space && wrote {
			dst = append(dst, ' ')
		}
		space, wrote = false, true
		if r < utf8.RuneSelf {
			if n := versionAt(text[i:]); n > 0 {
				dst = append(dst, versionMark...)
				i += n
			} else {
				dst = append(dst, text[i])
				i++
			}
			prevWord = true
			continue
		}
		dst = append(dst, text[i:i+w]...)
		prevWord = unicode.IsLetter(r) || unicode.IsDigit(r)
		i += w
	}
	if end >= 0 && len(dst) > end {
		return dst[:end]
	}
	return dst
}

// versionAt is the length of the version number s starts with, or 0.
func versionAt(s string) int {
	i := 0
	if s[0] == 'v' || s[0] == 'V' {
		i++
	}
	dots := 0
	for {
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == start {
			return 0 // a dot (or the start) not followed by a digit
		}
		if i+1 < len(s) && s[i] == '.' && '0' <= s[i+1] && s[i+1] <= '9' {
			i++
			dots++
			continue
		}
		break
	}
	if dots == 0 || i < len(s) && isWordStart(s[i:]) {
		return 0 // "v2", "1.2.3rc1": no dot, or part of a longer word
	}
	return i
}

func isWordStart(s string) bool {
	if s[0] < utf8.RuneSelf {
		return asciiClass[s[0]] != classSpace && asciiClass[s[0]] != classPunct
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// The classes of ASCII bytes for appendCollapseKey.
const (
	classWord    = iota // a letter (but v) or _
	classVersion        // a digit or v: may start a version number
	classPunct          // neither a word byte nor white space
	classSpace
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range utf8.RuneSelf {
		switch {
		case c == ' ' || '\t' <= c && c <= '\r':
			t[c] = classSpace
		case '0' <= c && c <= '9' || c == 'v' || c == 'V':
			t[c] = classVersion
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			t[c] = classWord
		default:
			t[c] = classPunct
		}
	}
	return t
}()

// collapser finds, among the results of one query, the one a passage
// collapses into. It hashes the first prefixKey bytes of a passage's key
// and compares whole keys only with the passages of the same hash: most
// passages have no twin, and a chunk's key costs a pass over its text.
type collapser struct {
	seed  maphash.Seed
	buf   []byte
	hash  uint64         // of the prefix of the last find
	first map[uint64]int // hash of a key's prefix → 1 + the last result with it
	chain []int          // chain[i]: 1 + the result before i with the same hash, or 0
}

// prefixKey is how much of a key is hashed.
const prefixKey = 256

// find returns the index in results of the result text collapses into,
// or -1; add then records text as result i.
func (c *collapser) find(text string, results []Result) int {
	if c.first == nil {
		c.seed, c.first, c.chain = maphash.MakeSeed(), make(map[uint64]int, 16), make([]int, 0, 16)
	}
	if c.buf == nil {
		c.buf = make([]byte, 0, prefixKey+len(versionMark))
	}
	c.buf = appendCollapseKey(c.buf[:0], text, prefixKey)
	c.hash = maphash.Bytes(c.seed, c.buf)
	var key string
	for j := c.first[c.hash]; j > 0; j = c.chain[j-1] {
		if key == "" {
			key = collapseKey(text)
		}
		if collapseKey(results[j-1].Text) == key {
			return j - 1
		}
	}
	return -1
}

func (c *collapser) add(i int) {
	for len(c.chain) <= i {
		c.chain = append(c.chain, 0)
	}
	c.chain[i] = c.first[c.hash]
	c.first[c.hash] = i + 1
}
