package analyze

import (
	"math/bits"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/da"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/fi"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/hu"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/no"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/lang/ro"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/lang/sv"
	"github.com/blevesearch/bleve/v2/analysis/lang/tr"
	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/turkish"
)

// English is the code of the default language: the chain of the package
// documentation, used for code and for any text no other language claims.
const English = "en"

// MultiVersion names the multilingual analysis (Detect, then the chain of
// the detected language). It goes into the index fingerprint in place of
// Version when chunks are analyzed in their own language; change it with
// any change to the detector, a language's chain or the language list.
const MultiVersion = "analyze@2 detect(stop-words,120words,min3,share0.05,no1letter)+" + Version + "+snowball(da,de,es,fi,fr,hu,it,nl,no,pt,ro,ru,sv,tr)+stop_xx+stop_en"

// language is one language other than English: its Snowball stemmer and
// its Snowball stop list (as bleve ships it), to which the English stop
// words are added.
type language struct {
	code string
	stop []byte
	stem func(*snowballstem.Env) bool
}

// others are the languages besides English, in a fixed order (their bit in
// a detection mask is their index + 1; English is bit 0).
var others = [...]language{
	{"da", da.DanishStopWords, danish.Stem},
	{"de", de.GermanStopWords, german.Stem},
	{"es", es.SpanishStopWords, spanish.Stem},
	{"fi", fi.FinnishStopWords, finnish.Stem},
	{"fr", fr.FrenchStopWords, french.Stem},
	{"hu", hu.HungarianStopWords, hungarian.Stem},
	{"it", it.ItalianStopWords, italian.Stem},
	{"nl", nl.DutchStopWords, dutch.Stem},
	{"no", no.NorwegianStopWords, norwegian.Stem},
	{"pt", pt.PortugueseStopWords, portuguese.Stem},
	{"ro", ro.RomanianStopWords, romanian.Stem},
	{"ru", ru.RussianStopWords, russian.Stem},
	{"sv", sv.SwedishStopWords, swedish.Stem},
	{"tr", tr.TurkishStopWords, turkish.Stem},
}

// Languages returns the codes of every language with its own chain,
// English first.
func Languages() []string {
	out := []string{English}
	for _, l := range others {
		out = append(out, l.code)
	}
	return out
}

// chains are the analyzers of the other languages, each built on the
// first call that needs it: a query process analyzes a query in the
// languages its index holds, not in all of them.
var chains = func() (out [len(others)]func() *analyzer) {
	for i := range others {
		out[i] = sync.OnceValue(func() *analyzer { return newLanguageAnalyzer(others[i]) })
	}
	return out
}()

// newLanguageAnalyzer builds the chain of a language: its stop list, to
// which the English stop words are added, and its Snowball stemmer.
func newLanguageAnalyzer(l language) *analyzer {
	m := languageStopWords(l)
	// English function words are stop words in every chain: technical
	// text in any language quotes English, and a query in English is
	// analyzed in every language the index holds, where "what" or "is"
	// would otherwise be rare, heavily weighted terms.
	for w := range englishStopWords() {
		m[w] = true
	}
	return &analyzer{stop: newStopWords(m), snowball: l.stem}
}

// languageStopWords is bleve's stop list of a language, as bleve's token
// map constructor reads it.
func languageStopWords(l language) analysis.TokenMap {
	m := analysis.NewTokenMap()
	if err := m.LoadBytes(l.stop); err != nil { // a byte slice: cannot fail
		panic("analyze: bleve's " + l.code + " stop list: " + err.Error())
	}
	return m
}

// ForLanguage returns the analyzer of a language code (Languages); an
// unknown code gets the English one.
func ForLanguage(code string) analysis.Analyzer {
	if code == English || code == "" {
		return Analyzer()
	}
	for i, l := range others {
		if l.code == code {
			return chains[i]()
		}
	}
	return Analyzer()
}

// stopMask is the set of languages listing word as a stop word (bit 0:
// English, bit i+1: others[i]), from the table of stoptable.go, which is
// compiled in: the detector builds nothing at run time. The table is open
// addressing over stopHash with linear probing; comparing a string with
// string(word) does not allocate.
func stopMask(word []byte) uint16 {
	if stopLengths[word[0]]&(1<<min(len(word), 63)) == 0 {
		return 0
	}
	for h := stopHash(word); ; h++ {
		i := stopSlots[h%uint32(len(stopSlots))]
		if i == 0 {
			return 0
		}
		if stopTableWords[i-1] == string(word) {
			return stopTableMasks[i-1]
		}
	}
}

// stopHash is 32-bit FNV-1a.
func stopHash(word []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range word {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// detectWords is how many words of a text Detect looks at.
const detectWords = 120

// minShare is the least score, per word read, a detected language needs:
// prose has a stop word in every three words or so, while a Chinese page
// with a few Latin words, or a list of names, has few.
const minShare = 0.05

// minScore is the least score a detected language needs in a document: a
// Go function naming a variable "mu" twice scores 2 for Turkish.
const minScore = 3

// Detect guesses the language of text from its stop words: each word that
// is a stop word of some languages adds 1/n to each of those n languages
// (so words shared by many languages, such as "de", weigh little), and the
// language with the highest score wins if it scores at least minScore and
// minShare per word read (ties go to English, then to the order of
// Languages); otherwise, and for text with few stop words (code, tables,
// identifiers), the answer is English. Ukrainian (і, ї, є, ґ) is not taken for Russian: it has no
// chain of its own and goes to the English chain, which leaves Cyrillic
// words unstemmed. One-letter words are not counted (in code and lists
// they are names and markers). Only the first detectWords words are read.
func Detect(text string) string { return detect(text, English, minScore) }

// DetectQuery is Detect for a query, which is short: one stop word that
// only one language lists is evidence enough. It returns "" when there is
// none.
func DetectQuery(text string) string { return detect(text, "", 1) }

// DetectOr is Detect with another answer when the evidence is too weak (no
// language scores minScore): a short chunk of a German file, a heading and
// a code block, is analyzed as the file was.
func DetectOr(text, fallback string) string { return detect(text, fallback, minScore) }

// Guess is Detect that also says whether the evidence was strong enough;
// when it was not, code is English.
func Guess(text string) (code string, sure bool) {
	code = detect(text, "", minScore)
	if code == "" {
		return English, false
	}
	return code, true
}

func detect(text, fallback string, least float64) string {
	var score [len(others) + 1]float64
	var buf [32]byte
	words, ukrainian := 0, false
	for i := 0; i < len(text) && words < detectWords; {
		// skip to the next letter
		c, w := rune(text[i]), 1
		if c >= utf8.RuneSelf {
			c, w = utf8.DecodeRuneInString(text[i:])
		}
		if !isLetter(c) {
			i += w
			continue
		}
		n, long := 0, false
		for i < len(text) {
			c, w = rune(text[i]), 1
			if c >= utf8.RuneSelf {
				c, w = utf8.DecodeRuneInString(text[i:])
			}
			if !isLetter(c) && c != '\'' {
				break
			}
			switch c {
			case 'і', 'ї', 'є', 'ґ', 'І', 'Ї', 'Є', 'Ґ':
				ukrainian = true
			}
			i += w
			if c < utf8.RuneSelf {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
			} else {
				c = unicode.ToLower(c)
			}
			if n+utf8.RuneLen(c) > len(buf) {
				long = true
				continue
			}
			n += utf8.EncodeRune(buf[n:], c)
		}
		words++
		if long || n == 1 {
			// One-letter stop words ("a", "e", "y", "o", "c") are more
			// often variables, list markers and initials than words.
			continue
		}
		if m := stopMask(buf[:n]); m != 0 {
			share := 1 / float64(bits.OnesCount16(m))
			for ; m != 0; m &= m - 1 {
				score[bits.TrailingZeros16(m)] += share
			}
		}
	}
	if ukrainian {
		score[slices.IndexFunc(others[:], func(l language) bool { return l.code == "ru" })+1] = 0
	}
	best := 0
	for l := 1; l < len(score); l++ {
		if score[l] > score[best] {
			best = l
		}
	}
	switch {
	case score[best] < least || score[best] < minShare*float64(words):
		return fallback
	case best == 0:
		return English
	}
	return others[best-1].code
}

func isLetter(c rune) bool {
	if c < utf8.RuneSelf {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	return unicode.IsLetter(c)
}

// TermsIn analyzes a query in each of the languages given (codes; none
// means English) and returns the union of their terms in order of first
// appearance: a query matches what each language's chunks stored.
func TermsIn(text string, codes []string) []string {
	if len(codes) == 0 || len(codes) == 1 && codes[0] == English {
		return Terms(text)
	}
	var out []string
	seen := map[string]struct{}{}
	for _, code := range codes {
		for _, t := range ForLanguage(code).Analyze([]byte(text)) {
			term := string(t.Term)
			if _, dup := seen[term]; !dup {
				seen[term] = struct{}{}
				out = append(out, term)
			}
		}
	}
	return out
}
