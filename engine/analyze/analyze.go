package analyze

import (
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
)

// Version names the analysis chain and its settings. It goes into the index
// fingerprint: change it whenever Analyzer may produce different terms for
// the same text.
const Version = "analyze@1 unicode+scripts(th:icu-dict,sa:bigram2,ideo:1)+ident+apos+lower+possessive+stop_en+porter+max64"

// MaxTermBytes is the longest term kept. Longer tokens (hashes beyond SHA-256
// hex, base64 blobs, minified code) are dropped whole; the parts an
// identifier splits into are kept when they are short enough.
const MaxTermBytes = 64

// shared is the analyzer, built on first use.
var shared = sync.OnceValue(newAnalyzer)

//semguard:begin analyzer

// Analyzer returns the analyzer used both to index and to query. It is built
// once, on first use, and is safe for concurrent use. Like bleve's own
// analyzers, Analyze may modify the input bytes in place.
func Analyzer() analysis.Analyzer { return shared() }

//semguard:end analyzer

// Terms analyzes a query string and returns its terms in order of first
// appearance, without duplicates; nil when nothing is left.
func Terms(text string) []string {
	tokens := Analyzer().Analyze([]byte(text))
	var out []string
	seen := make(map[string]struct{}, len(tokens))
	for _, t := range tokens {
		term := string(t.Term)
		if _, dup := seen[term]; dup {
			continue
		}
		seen[term] = struct{}{}
		out = append(out, term)
	}
	return out
}

// newAnalyzer builds the chain of the package documentation (bleve's
// unicode tokenizer, identifier splitting, lower-case, possessive_en,
// stop_en and stemmer_porter), run in one pass by analyzer (chain.go);
// stop_en's list is the stop table's English one (bit 0).
func newAnalyzer() analysis.Analyzer {
	return &analyzer{stop: tableStopWords(1), english: true}
}

// Stemmer returns a function giving one word's term as Terms analyzes it
// (its stem; "" for a stop word), remembering the words it has seen: the
// code signals stem the words of many paths per query (rank.PathMatch).
// It is not safe for concurrent use.
func Stemmer() func(word string) string {
	memo := map[string]string{}
	return func(w string) string {
		if s, ok := memo[w]; ok {
			return s
		}
		var s string
		if t := Terms(w); len(t) > 0 {
			s = t[0]
		}
		memo[w] = s
		return s
	}
}
