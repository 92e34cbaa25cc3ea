package analyze

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/ar"
	"github.com/blevesearch/bleve/v2/analysis/lang/el"
	"github.com/blevesearch/bleve/v2/analysis/lang/fa"
	"github.com/blevesearch/bleve/v2/analysis/lang/hi"
	"github.com/blevesearch/bleve/v2/analysis/token/unicodenorm"
	"golang.org/x/text/unicode/norm"

	"github.com/autorag/autorag/engine/analyze/internal/greek"
)

// The languages detected by their script (detect.go) rather than by their
// stop words, each with bleve's stop list of the language (Lucene's) and
// the steps of Lucene's analyzer of it, from bleve's components where bleve
// has them:
//
//   - ar: NFKC, stop list, bleve's Arabic normalization (hamza forms of
//     alef, dotless yeh, teh marbuta, tatweel and diacritics) and light
//     stemmer (prefixes ال وال بال كال فال لل و, suffixes ها ان ات ون ين
//     يه ية ه ة ي), as bleve's and Lucene's ArabicAnalyzer;
//   - fa: zero-width non-joiners separate words, Arabic and Persian
//     normalization, stop list, no stemmer (bleve's and Lucene's
//     PersianAnalyzer; Snowball's Persian stemmer needs a newer runtime
//     than github.com/blevesearch/snowballstem and there is no Persian set
//     to measure it on);
//   - el: accents and final sigma folded (Lucene's GreekLowerCaseFilter),
//     stop list, the Snowball Greek stemmer (internal/greek);
//   - hi: Hindi normalization (nukta, chandrabindu, ZWJ and the long and
//     short vowels folded), stop list, bleve's Hindi light stemmer:
//     Lucene's HindiAnalyzer without its Indic normalization, which scored
//     the same on XQuAD hi (0.9558 either way) and tripled the cost of a
//     query's analysis (bleve's looks up each letter's script in a map);
//   - tr (a language of others, by its stop words): Turkish lower-casing
//     (I to ı, İ to i), the apostrophe and the suffixes after it dropped
//     ("Ankara'nın" is ankara), and a term's first five letters as its stem
//     (Can et al., "Information retrieval on Turkish texts", JASIST 2008:
//     as good as a lemmatizer). Measured on XQuAD tr: the first four letters
//     0.9435, five 0.9416, six 0.9362, Snowball Turkish 0.9271 (bleve's
//     and Lucene's stemmer).
//   - th: no steps beyond the tokenizer's dictionary segmentation and the
//     English stop words;
//   - vi: a stop list of one-syllable function words (below), no stemming.
//     Spaces separate syllables, not words, but pairs of adjacent
//     syllables as terms as well (shingles) scored lower on XQuAD vi
//     (0.9539 with the stop list, 0.9530 without) than syllables alone
//     (0.9634; the English chain 0.9584).
//
// In these chains a term written in ASCII only is English quoted in the
// text (a product, an API, a technical term): it is stemmed by Porter as
// the English chain stems it, so "databases" in an Arabic question finds
// "database" in an Arabic page.
var scripted = [...]language{
	{code: "ar", stop: ar.ArabicStopWords, steps: arabicSteps},
	{code: "el", stop: el.GreekStopWords, stem: greek.Stem, steps: greekSteps},
	{code: "fa", stop: fa.PersianStopWords, steps: persianSteps},
	{code: "hi", stop: hi.HindiStopWords, steps: hindiSteps},
	{code: "th", steps: func() *steps { return &steps{porter: true} }},
	{code: "vi", stop: vietnameseStopWords, steps: func() *steps { return &steps{} }},
}

// steps are what a chain does beyond lower-casing, the stop list and a
// Snowball stemmer. Zero fields do nothing.
type steps struct {
	zwnj       bool                   // U+200C separates words (Persian)
	lower      func([]byte) []byte    // in place of lower
	apostrophe bool                   // drop an apostrophe and what follows (Turkish)
	fold       func([]byte) []byte    // after lower-casing, before the stop list
	before     []analysis.TokenFilter // before the stop list
	after      []analysis.TokenFilter // after the stop list: normalization, stemming
	porter     bool                   // ASCII terms are stemmed by Porter
	prefix     int                    // > 0: a term's stem is its first prefix runes
}

func arabicSteps() *steps {
	return &steps{
		before: []analysis.TokenFilter{unicodenorm.MustNewUnicodeNormalizeFilter(unicodenorm.NFKC)},
		after:  []analysis.TokenFilter{ar.NewArabicNormalizeFilter(), ar.NewArabicStemmerFilter()},
		porter: true,
	}
}

func persianSteps() *steps {
	return &steps{
		zwnj:   true,
		before: []analysis.TokenFilter{ar.NewArabicNormalizeFilter(), fa.NewPersianNormalizeFilter()},
		porter: true,
	}
}

func hindiSteps() *steps {
	return &steps{
		before: []analysis.TokenFilter{hi.NewHindiNormalizeFilter()},
		after:  []analysis.TokenFilter{hi.NewHindiStemmerFilter()},
		porter: true,
	}
}

func greekSteps() *steps { return &steps{fold: greekFold, porter: true} }

func turkishSteps() *steps { return &steps{lower: turkishLower, apostrophe: true, prefix: 5} }

// truncate keeps the first n runes of term.
func truncate(term []byte, n int) []byte {
	for i := range string(term) {
		if n == 0 {
			return term[:i]
		}
		n--
	}
	return term
}

// greekFold removes the accents (tonos, dialytika and the polytonic marks)
// of a lower-case Greek term and writes final sigma as σ, as Lucene's
// GreekLowerCaseFilter does: bleve's Greek stop list is written so. It
// works in place (no folded letter is longer than its source, and the
// term's bytes are the token's own: Analyze may write over its input).
func greekFold(term []byte) []byte {
	if isASCII(term) {
		return term
	}
	n := 0
	for i := 0; i < len(term); {
		c, w := utf8.DecodeRune(term[i:])
		i += w
		switch {
		case c == 'ς':
			c = 'σ'
		case c >= 'ά' && c <= 'ώ' || c == 'ΐ' || c == 'ΰ':
			c = greekBase(c)
		case c >= 0x1F00 && c <= 0x1FFF: // polytonic
			c = greekBase(c)
		case c >= 0x0300 && c <= 0x036F: // a combining accent of decomposed text
			continue
		}
		n += utf8.EncodeRune(term[n:], c)
	}
	return term[:n]
}

// greekBase is the letter of an accented Greek letter.
func greekBase(c rune) rune {
	switch c {
	case 'ά':
		return 'α'
	case 'έ':
		return 'ε'
	case 'ή':
		return 'η'
	case 'ί', 'ϊ', 'ΐ':
		return 'ι'
	case 'ό':
		return 'ο'
	case 'ύ', 'ϋ', 'ΰ':
		return 'υ'
	case 'ώ':
		return 'ω'
	}
	for _, d := range norm.NFD.String(string(c)) {
		if !unicode.Is(unicode.Mn, d) {
			return d
		}
	}
	return c
}

// turkishLower lower-cases a term by Turkish rules: I to ı and İ to i
// (Lucene's TurkishLowerCaseFilter), into a copy.
func turkishLower(term []byte) []byte {
	return bytes.ToLowerSpecial(unicode.TurkishCase, term)
}

// cutApostrophe drops an apostrophe and what follows it: Turkish writes
// the suffixes of a proper name after one ("İstanbul'da", "Ankara'nın"),
// bleve's and Lucene's apostrophe filter. The tokenizer's run has folded ’
// and ＇ to '.
func cutApostrophe(term []byte) []byte {
	if i := bytes.IndexByte(term, '\''); i >= 0 {
		return term[:i]
	}
	return term
}

// separateZWNJ replaces each zero-width non-joiner of input with spaces of
// the same length (bleve's zero_width_non_joiner char filter, which keeps
// offsets), in place.
func separateZWNJ(input []byte) {
	const zwnj = "\u200c"
	for i := 0; ; {
		j := bytes.Index(input[i:], []byte(zwnj))
		if j < 0 {
			return
		}
		copy(input[i+j:], "   ")
		i += j + len(zwnj)
	}
}

// filterTerm runs a bleve token filter over one term and returns its term
// afterwards (nil if the filter dropped it). one is a reusable token.
func filterTerm(f analysis.TokenFilter, one *[1]*analysis.Token, term []byte) []byte {
	tok := one[0]
	*tok = analysis.Token{Term: term}
	out := f.Filter(analysis.TokenStream(one[:]))
	if len(out) == 0 {
		return nil
	}
	return out[0].Term
}

// vietnameseStopWords are Vietnamese function words (conjunctions,
// prepositions, particles, classifiers and question words), each one
// syllable.
var vietnameseStopWords = []byte(`và
của
có
các
là
được
trong
cho
không
những
một
với
này
đã
để
khi
từ
thì
đến
như
cũng
vào
ra
về
sẽ
lại
nhưng
nên
còn
rằng
do
bị
bởi
tại
theo
mà
đó
nào
gì
ai
sao
đâu
hay
hoặc
nếu
vì
đang
rất
việc
sự
`)
