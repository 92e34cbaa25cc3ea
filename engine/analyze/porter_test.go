package analyze

import (
	"testing"

	"github.com/blevesearch/go-porterstemmer"
)

// refStem is bleve's stemmer_porter on one ASCII word.
func refStem(word string) string {
	return string(porterstemmer.StemWithoutLowerCasing([]rune(word)))
}

func checkStem(t testing.TB, word string) {
	t.Helper()
	if got, want := string(stemASCII([]byte(word))), refStem(word); got != want {
		t.Fatalf("stemASCII(%q) = %q, go-porterstemmer gives %q", word, got, want)
	}
}

// porterSuffixes are all the suffixes Porter's rules test, and a few
// endings that make one rule's output another's input.
var porterSuffixes = []string{
	"", "sses", "ies", "ss", "s", "eed", "ed", "ing", "at", "bl", "iz", "y", "Y",
	"ational", "tional", "enci", "anci", "izer", "bli", "abli", "alli", "entli", "eli", "ousli",
	"ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti",
	"biliti", "logi", "icate", "ative", "alize", "iciti", "ical", "ful", "ness",
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "sion",
	"tion", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll", "le",
}

// TestStemASCIIShortWords compares every word of up to four letters over an
// alphabet with the vowels, y, the letters the rules name and a few other
// bytes.
func TestStemASCIIShortWords(t *testing.T) {
	alphabet := "abcdefgilmnorstuvwxyzY'_1"
	if testing.Short() || raceEnabled {
		alphabet = "aeiouyblstwz"
	}
	buf := make([]byte, 0, 4)
	var rec func()
	rec = func() {
		checkStem(t, string(buf))
		if len(buf) == 4 {
			return
		}
		for i := range len(alphabet) {
			buf = append(buf, alphabet[i])
			rec()
			buf = buf[:len(buf)-1]
		}
	}
	rec()
}

// TestStemASCIISuffixes compares every rule's suffix, alone and followed by
// a second one, after every stem of up to three letters over a small
// alphabet (vowels, y, and the consonants the rules single out).
func TestStemASCIISuffixes(t *testing.T) {
	letters := "aeoybdlstwxz"
	if testing.Short() || raceEnabled {
		letters = "aeybltz"
	}
	stems := []string{""}
	for range 3 {
		for _, s := range stems {
			if len(s) < 3 {
				for i := range len(letters) {
					stems = append(stems, s+letters[i:i+1])
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, stem := range stems {
		if seen[stem] {
			continue
		}
		seen[stem] = true
		for _, s1 := range porterSuffixes {
			for _, s2 := range []string{"", "s", "ed", "ing", "e", "ly", "ness", "er", "al", "ation"} {
				checkStem(t, stem+s1+s2)
			}
		}
	}
}

func TestStemASCIIWords(t *testing.T) {
	for _, w := range []string{
		"caresses", "ponies", "ties", "caress", "cats", "feed", "agreed", "plastered", "bled",
		"motoring", "sing", "conflated", "troubled", "sized", "hopping", "tanned", "falling",
		"hissing", "fizzed", "failing", "filing", "happy", "sky", "relational", "conditional",
		"rational", "valenci", "hesitanci", "digitizer", "conformabli", "radicalli",
		"differentli", "vileli", "analogousli", "vietnamization", "predication", "operator",
		"feudalism", "decisiveness", "hopefulness", "callousness", "formaliti", "sensitiviti",
		"sensibiliti", "triplicate", "formative", "formalize", "electriciti", "electrical",
		"hopeful", "goodness", "revival", "allowance", "inference", "airliner", "gyroscopic",
		"adjustable", "defensible", "irritant", "replacement", "adjustment", "dependent",
		"adoption", "homologou", "communism", "activate", "angulariti", "homologous",
		"effective", "bowdlerize", "probate", "rate", "cease", "controll", "roll",
		"generalizations", "oscillators", "yyyy", "syzygy", "queueing", "don't", "foo_bar",
		"x86_64", "v1.2.3", "3.14", "1,000", "ab", "a", "", "e", "eed", "ing", "ed", "ies",
	} {
		checkStem(t, w)
	}
}

// FuzzStemASCII compares stemASCII with go-porterstemmer on any ASCII word
// (each byte of the input is folded to 7 bits, and to lower case half of
// the time: the analyzer stems lower-case terms).
func FuzzStemASCII(f *testing.F) {
	for _, s := range []string{"generalizations", "hopping", "conflated", "sensibiliti", "syzygy", "x86_64", "yyyy"} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, b []byte, lowerCase bool) {
		w := make([]byte, len(b))
		for i, c := range b {
			c &= 0x7f
			if lowerCase && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			w[i] = c
		}
		checkStem(t, string(w))
	})
}
