package static

import (
	"unicode"
	"unicode/utf8"
)

// Words the vocabulary only spells out. The vocabulary is BERT's English
// one: a word of another script is cut into single letters (Arabic, Hindi,
// Greek, most Cyrillic: "من" → م ##ن) or is unknown as a whole (a Thai
// run, rare ideographs). Rows of single letters say nothing about the
// word, and unknown tokens are dropped, so such a text would have almost
// no vector. A word with a letter or digit that is unknown, or that has a
// letter beyond ASCII (once accents are stripped: ı, ß, ø, Greek,
// Cyrillic, Arabic, …) and pieces of less than 1.5 characters on
// average, gets instead a vector of its own: the sum of
// deterministic pseudo-random ±1 vectors, one per byte n-gram (n = 3, 4,
// 5) of "<word>", scaled to fallbackNorm. These vectors are near-orthogonal
// to each other unless words share n-grams: the same word, or its
// inflections, in a query and a document still meet. ASCII words split
// into short pieces (acronyms, identifiers: "egfr" → e ##gf ##r) keep
// their rows: on NFCorpus, SciFact and CoSQA their fallback vectors lost
// 0.001 to 0.006 nDCG@10 in vector mode. Counting ı, ß and the like (not
// only scripts from U+0250 on) lifted Turkish XQuAD from 0.4346 to 0.4683.

// fallbackNorm is the length of a fallback vector: the median length of
// the table's rows (TestFallbackNorm).
const fallbackNorm = 97

// spelledOut reports whether a word of pieces tokens (unknown when unk)
// and normalized text gets a fallback vector.
func spelledOut(text []byte, pieces int, unk bool) bool {
	if !hasWordRune(text) {
		return false
	}
	if unk {
		return true
	}
	return pieces >= 2 && 2*utf8.RuneCount(text) < 3*pieces && hasNonASCIILetter(text)
}

func hasWordRune(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
		b = b[n:]
	}
	return false
}

// hasNonASCIILetter reports a letter beyond ASCII. The text is lower case
// and without accents, so what is left is ı, ß, ø, ł and the like, and
// other scripts.
func hasNonASCIILetter(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r >= utf8.RuneSelf && unicode.IsLetter(r) {
			return true
		}
		b = b[n:]
	}
	return false
}

// addFallback adds word's n-gram vector, of length fallbackNorm, to acc.
func addFallback(acc *[Dims]float32, grams *[Dims]int32, word []byte) {
	*grams = [Dims]int32{}
	n := 0
	for size := 3; size <= 5; size++ {
		for i := 0; i+size <= len(word)+2; i++ {
			addGram(grams, gramHash(word, i, size))
			n++
		}
	}
	var ss float64
	for _, g := range grams {
		ss += float64(g) * float64(g)
	}
	if ss == 0 {
		return
	}
	scale := float32(fallbackNorm / sqrt(ss))
	for d, g := range grams {
		acc[d] += scale * float32(g)
	}
}

// gramHash is FNV-1a of the size bytes at i of "<" + word + ">".
func gramHash(word []byte, i, size int) uint64 {
	h := uint64(14695981039346656037)
	for j := i; j < i+size; j++ {
		c := byte('<')
		switch {
		case j == len(word)+1:
			c = '>'
		case j > 0:
			c = word[j-1]
		}
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// addGram adds the ±1 vector of a gram: its signs are the bits of a
// splitmix64 stream seeded by the hash.
func addGram(grams *[Dims]int32, h uint64) {
	for base := 0; base < Dims; base += 64 {
		h += 0x9e3779b97f4a7c15
		z := h
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		z ^= z >> 31
		for d := range 64 {
			grams[base+d] += int32(z>>d&1)*2 - 1
		}
	}
}
