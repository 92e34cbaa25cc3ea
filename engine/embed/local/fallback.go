package local

import (
	"unicode"
	"unicode/utf8"

	"github.com/autorag/autorag/engine/embed/local/internal/wordtab"
	"golang.org/x/text/unicode/norm"
)

// Unknown words. The table is ASCII (the source vectors were transliterated),
// so a word with other letters is first tried with its accents removed
// ("café" as "cafe", "Zürich" as "zurich": NFD, combining marks dropped).
// A word the table lacks is then tried without a common
// English suffix ("statins" as "statin", "tokenizing" as "tokenize"). If
// that fails too it gets a vector of its own: the sum of deterministic
// pseudo-random ±1 vectors, one per character n-gram (bytes, n = 3, 4, 5,
// of "<word>", at most the first maxGramBytes bytes), scaled to the typical
// length of a rare GloVe word and weighted like the rarest word. Such
// vectors are near-orthogonal to every GloVe word and to each other unless
// they share n-grams: the same identifier, or its inflections, in a query
// and a document still meet ("kubectl" and "kubectls" are close, "kubectl"
// and "car" are not).

const maxGramBytes = 64

// suffixes are tried in order; the stripped stem must keep at least
// minStem bytes. "ies" becomes "y".
var suffixes = [...]struct{ cut, add string }{
	{"ies", "y"}, {"es", ""}, {"s", ""}, {"ing", ""}, {"ing", "e"},
	{"ed", ""}, {"ed", "e"}, {"ly", ""},
}

const minStem = 3

// addUnknown adds word, which the table lacks.
func (e *Embedder) addUnknown(s *scratch, word []byte) {
	if folded, ok := s.fold(word); ok {
		if off, ok := e.tab.Lookup(folded); ok {
			e.addRecord(s, off)
			return
		}
	}
	if e.stem {
		for _, sf := range suffixes {
			n := len(word) - len(sf.cut)
			if n < minStem || string(word[n:]) != sf.cut {
				continue
			}
			s.alt = append(append(s.alt[:0], word[:n]...), sf.add...)
			if off, ok := e.tab.Lookup(s.alt); ok {
				e.addRecord(s, off)
				return
			}
		}
	}
	s.unknown++
	if e.oov {
		e.addGrams(s, word)
	}
}

// addGrams adds word's n-gram vector.
func (e *Embedder) addGrams(s *scratch, word []byte) {
	if len(word) > maxGramBytes {
		word = word[:maxGramBytes]
	}
	f := append(append(append(s.alt[:0], '<'), word...), '>')
	s.alt = f
	var sum [Dims]int32
	for n := 3; n <= 5; n++ {
		for i := 0; i+n <= len(f); i++ {
			addSigns(&sum, wordtab.Hash(f[i:i+n])^uint64(n))
		}
	}
	v := &s.oov
	for d, x := range sum {
		v[d] = float32(x)
	}
	norm := l2(v)
	if norm == 0 {
		return
	}
	w := e.oovW * e.tab.OOVNorm() / norm
	for d := range s.acc {
		s.acc[d] += w * v[d]
	}
}

// addSigns adds the ±1 vector seeded by h: bit d of a splitmix64 stream
// gives component d's sign.
func addSigns(v *[Dims]int32, h uint64) {
	for d := 0; d < Dims; d += 64 {
		h += 0x9e3779b97f4a7c15
		z := h
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		for b := 0; b < 64 && d+b < Dims; b++ {
			v[d+b] += int32(z>>b&1)*2 - 1
		}
	}
}

// fold returns word without combining marks (in s.alt), and whether that
// differs from word.
func (s *scratch) fold(word []byte) ([]byte, bool) {
	ascii := true
	for _, c := range word {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return nil, false
	}
	d := norm.NFD.Append(s.alt[:0], word...)
	out := d[:0]
	for i := 0; i < len(d); {
		r, n := utf8.DecodeRune(d[i:])
		if !unicode.Is(unicode.Mn, r) {
			out = utf8.AppendRune(out, r)
		}
		i += n
	}
	s.alt = out
	return out, string(out) != string(word)
}
