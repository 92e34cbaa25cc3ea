package copies

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cespare/xxhash/v2"
)

// Signature is a bottom-k sketch of a text's word shingles: the k smallest
// distinct shingle hashes, ascending.
type Signature []uint64

// Sketch parameters: shingles of shingleWords words, sketchSize hashes,
// over the first signBytes of a text (a copy shows in its beginning; a
// large PDF is not read whole at every query).
const (
	shingleWords = 4
	sketchSize   = 128
	signBytes    = 64 << 10
)

// Sign sketches text: lowercased words (letters and digits), shingled.
// A text of fewer words than a shingle is one shingle. A shingle's hash is
// that of its words, each followed by a 0 byte: one xxhash call per
// shingle over wordBytes. The hash has no seed, so every process signs a
// text alike and the copies collapsed for a query do not change from one
// run to the next (a per-process seed made them, near the thresholds).
func Sign(text string) Signature {
	text = text[:min(len(text), signBytes)]
	joined, starts := wordBytes(text)
	if len(starts) == 0 {
		return nil
	}
	n := max(len(starts)-shingleWords+1, 1)
	hashes := make([]uint64, 0, n)
	for i := 0; i < n; i++ {
		end := len(joined)
		if j := i + shingleWords; j < len(starts) {
			end = starts[j]
		}
		hashes = append(hashes, xxhash.Sum64(joined[starts[i]:end]))
	}
	slices.Sort(hashes)
	hashes = slices.Compact(hashes)
	return Signature(hashes[:min(len(hashes), sketchSize)])
}

// wordBytes returns the lowercased words (runs of letters and digits) of
// text, each followed by a 0 byte, and where each starts. ASCII text is
// done a byte at a time through asciiWord: a cold query signs whole
// documents, and the rune-wise split cost more than the rest of its
// ranking. The words and their 0 bytes never outgrow the text by more
// than the last word's 0, so joined is written in place.
func wordBytes(text string) (joined []byte, starts []int) {
	joined = make([]byte, len(text)+1)
	n := 0
	in := false
	for i := 0; i < len(text); i++ {
		c := asciiWord[text[i]]
		switch c {
		case nonASCII:
			return wordRunes(text)
		case 0:
			if in {
				joined[n], in = 0, false
				n++
			}
			continue
		}
		if !in {
			starts, in = append(starts, n), true
		}
		joined[n] = c
		n++
	}
	if in {
		joined[n] = 0
		n++
	}
	return joined[:n], starts
}

// wordRunes is wordBytes for a text that is not all ASCII.
func wordRunes(text string) (joined []byte, starts []int) {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		starts = append(starts, len(joined))
		joined = append(append(joined, w...), 0)
	}
	return joined, starts
}

// nonASCII marks in asciiWord the bytes that start or continue a
// multi-byte rune.
const nonASCII = 0xff

// asciiWord maps an ASCII letter or digit to itself lowercased, any other
// ASCII byte to 0 (a separator) and every other byte to nonASCII.
var asciiWord = func() (t [256]byte) {
	for c := 0x80; c < 0x100; c++ {
		t[c] = nonASCII
	}
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = c, c
	}
	return t
}()

// Similarity estimates the Jaccard similarity of the shingle sets a and b
// were signed from: among the k smallest hashes of their union, the share
// found in both. Exact when both sets are smaller than the sketch.
func Similarity(a, b Signature) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	k := min(sketchSize, len(a)+len(b))
	both, seen := 0, 0
	i, j := 0, 0
	for seen < k && (i < len(a) || j < len(b)) {
		switch {
		case j >= len(b) || i < len(a) && a[i] < b[j]:
			i++
		case i >= len(a) || b[j] < a[i]:
			j++
		default:
			both++
			i++
			j++
		}
		seen++
	}
	return float64(both) / float64(seen)
}
