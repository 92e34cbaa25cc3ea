package analyze

import (
	"sync"

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
)

// English is the code of the default language: the chain of the package
// documentation, used for code and for any text no other language claims.
const English = "en"

// MultiVersion names the multilingual analysis (Detect, then the chain of
// the detected language). It goes into the index fingerprint in place of
// Version when chunks are analyzed in their own language; change it with
// any change to the detector, a language's chain or the language list.
const MultiVersion = "analyze@3 detect(script>half:ar,fa,el,hi,th;vi-letters>0.15;stop-words,120words,min3,share0.05,no1letter,names-last,cjk:en)+" + Version +
	"+snowball(da,de,es,fi,fr,hu,it,nl,no,pt,ro,ru,sv)+tr(lower_tr,apos,prefix5)+ar(nfkc,norm,light)+fa(zwnj,norm)+el(fold,snowball-greek)+hi(hindi-norm,light)+th+vi(stop_vi)+porter_ascii(ar,fa,el,hi,th)+stop_xx+stop_en"

// language is one language other than English: its Snowball stemmer and
// its Snowball stop list (as bleve ships it), to which the English stop
// words are added, and the other steps of its chain (chains.go), if any.
type language struct {
	code  string
	stop  []byte
	stem  func(*snowballstem.Env) bool
	steps func() *steps
}

// others are the languages besides English, in a fixed order (their bit in
// a detection mask is their index + 1; English is bit 0).
var others = [...]language{
	{"da", da.DanishStopWords, danish.Stem, nil},
	{"de", de.GermanStopWords, german.Stem, nil},
	{"es", es.SpanishStopWords, spanish.Stem, nil},
	{"fi", fi.FinnishStopWords, finnish.Stem, nil},
	{"fr", fr.FrenchStopWords, french.Stem, nil},
	{"hu", hu.HungarianStopWords, hungarian.Stem, nil},
	{"it", it.ItalianStopWords, italian.Stem, nil},
	{"nl", nl.DutchStopWords, dutch.Stem, nil},
	{"no", no.NorwegianStopWords, norwegian.Stem, nil},
	{"pt", pt.PortugueseStopWords, portuguese.Stem, nil},
	{"ro", ro.RomanianStopWords, romanian.Stem, nil},
	{"ru", ru.RussianStopWords, russian.Stem, nil},
	{"sv", sv.SwedishStopWords, swedish.Stem, nil},
	{"tr", tr.TurkishStopWords, nil, turkishSteps},
}

// Languages returns the codes of every language with its own chain,
// English first.
func Languages() []string {
	out := []string{English}
	for _, l := range others {
		out = append(out, l.code)
	}
	for _, l := range scripted {
		out = append(out, l.code)
	}
	return out
}

// chains are the analyzers of the other languages, each built on the
// first call that needs it: a query process analyzes a query in the
// languages its index holds, not in all of them.
var chains = func() (out [len(others) + len(scripted)]func() *analyzer) {
	for i := range others {
		out[i] = sync.OnceValue(func() *analyzer { return newLanguageAnalyzer(others[i], 1|1<<(i+1)) })
	}
	for i := range scripted {
		out[len(others)+i] = sync.OnceValue(func() *analyzer { return newLanguageAnalyzer(scripted[i], 0) })
	}
	return out
}()

// newLanguageAnalyzer builds the chain of a language: its stop list, to
// which the English stop words are added, and its Snowball stemmer. A
// language of the stop table has its bit and English's in mask, and its
// stop list is the table's (tableStopWords); mask 0 builds the list from
// bleve's.
func newLanguageAnalyzer(l language, mask uint16) *analyzer {
	// English function words are stop words in every chain: technical
	// text in any language quotes English, and a query in English is
	// analyzed in every language the index holds, where "what" or "is"
	// would otherwise be rare, heavily weighted terms.
	stop := tableStopWords(mask)
	if mask == 0 {
		m := languageStopWords(l)
		for i, w := range stopTableWords {
			if stopTableMasks[i]&1 != 0 { // English's
				m[w] = true
			}
		}
		stop = newStopWords(m)
	}
	a := &analyzer{stop: stop, snowball: l.stem}
	if l.steps != nil {
		a.steps = l.steps()
	}
	return a
}

// languageStopWords is bleve's stop list of a language, as bleve's token
// map constructor reads it.
func languageStopWords(l language) analysis.TokenMap {
	m := analysis.NewTokenMap()
	if l.stop == nil {
		return m
	}
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
	for i, l := range scripted {
		if l.code == code {
			return chains[len(others)+i]()
		}
	}
	return Analyzer()
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
