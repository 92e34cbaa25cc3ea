package local

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/analyze"
)

// TestStemCountsMatchBleve runs one bodyScratch through random texts in
// every language's chain, English prose (every term from the stem cache,
// counted by id) and texts with words the cache does not stem (counted by
// map), and more distinct words than the cache holds: the frequencies
// must be bleve's analysis.TokenFrequency of the same tokens, and the
// counts by id zero after each text.
func TestStemCountsMatchBleve(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 5))
	words := strings.Fields("the running runs runner ran water waters River's rivers HTTPServer parse_http connection connected connects generalization general generally Kinder spielen système Привет")
	var s bodyScratch
	for k := range 600 {
		var sb strings.Builder
		for range r.IntN(500) {
			w := words[r.IntN(len(words)-3)] // English only, mostly
			switch r.IntN(40) {
			case 0:
				w = words[len(words)-1-r.IntN(3)]
			case 1, 2, 3:
				w = randomWord(r) // many distinct words: the cache is trimmed
			}
			sb.WriteString(w)
			sb.WriteString([]string{" ", ", ", ". ", "\n", "-"}[r.IntN(5)])
		}
		for _, code := range []string{analyze.English, analyze.Languages()[k%len(analyze.Languages())]} {
			a := analyze.ForLanguage(code)
			want := freqTable(analysis.TokenFrequency(a.Analyze([]byte(sb.String())), nil, index.IndexField))
			got := freqTable(s.termFrequencies(analyze.AnalyzeReusing(a, []byte(sb.String()), &s.Scratch)))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("text %d (%s):\n%v\nwant\n%v", k, code, got, want)
			}
			for id, n := range s.counts {
				if n != 0 {
					t.Fatalf("text %d (%s): count of stem %d is %d after counting", k, code, id, n)
				}
			}
		}
	}
}

func randomWord(r *rand.Rand) string {
	b := make([]byte, 3+r.IntN(8))
	for i := range b {
		b[i] = byte('a' + r.IntN(26))
	}
	return string(b)
}
