package copies

import (
	"hash/maphash"
	"slices"
	"strings"
	"unicode"
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

// seed is fixed for the process: signatures are compared, never stored.
var seed = maphash.MakeSeed()

// Sign sketches text: lowercased words (letters and digits), shingled.
// A text of fewer words than a shingle is one shingle.
func Sign(text string) Signature {
	text = text[:min(len(text), signBytes)]
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return nil
	}
	n := max(len(words)-shingleWords+1, 1)
	hashes := make([]uint64, 0, n)
	var h maphash.Hash
	h.SetSeed(seed)
	for i := 0; i < n; i++ {
		h.Reset()
		for _, w := range words[i:min(i+shingleWords, len(words))] {
			h.WriteString(w)
			h.WriteByte(0)
		}
		hashes = append(hashes, h.Sum64())
	}
	slices.Sort(hashes)
	hashes = slices.Compact(hashes)
	return Signature(hashes[:min(len(hashes), sketchSize)])
}

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
