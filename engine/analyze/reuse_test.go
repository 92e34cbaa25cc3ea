package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
)

// TestAnalyzeReusingMatchesAnalyze runs one Scratch through texts of
// growing and shrinking length in every language's chain and requires the
// tokens Analyze gives each text, with stem ids that name their terms
// (checkStemIDs); the terms of a stream stay intact after the Scratch serves the
// next one.
func TestAnalyzeReusingMatchesAnalyze(t *testing.T) {
	words := strings.Fields("the water River's people système parseHTTPRequest fooBar_baz Kinder spielen 東京都 ภาษาไทย Привет مرحبا running quickly d41d8cd98f00b204e9800998ecf8427e")
	r := rand.New(rand.NewPCG(25, 1))
	var texts []string
	for _, n := range []int{0, 1, 5, 300, 40, 2000, 3, 9000, 700, 12000, 100} {
		var sb strings.Builder
		for range n {
			sb.WriteString(words[r.IntN(len(words))])
			sb.WriteString([]string{" ", ", ", ". ", "\n", "-"}[r.IntN(5)])
		}
		texts = append(texts, sb.String())
	}
	for _, code := range append([]string{English}, Languages()...) {
		a := ForLanguage(code)
		var s Scratch
		var prev [][]byte // the previous stream's terms, as returned
		var prevTerms []string
		for i, text := range texts {
			want := a.Analyze([]byte(text))
			got := AnalyzeReusing(a, []byte(text), &s)
			if g, w := render(got), render(want); g != w {
				t.Fatalf("%s text %d:\n%s\nwant\n%s", code, i, g, w)
			}
			checkStemIDs(t, &s, got, fmt.Sprintf("%s text %d", code, i))
			for j, term := range prevTerms {
				if string(prev[j]) != term {
					t.Fatalf("%s text %d: term %d of the previous stream changed", code, i, j)
				}
			}
			prev, prevTerms = prev[:0], prevTerms[:0]
			for _, tok := range got {
				prev = append(prev, tok.Term)
				prevTerms = append(prevTerms, string(tok.Term))
			}
		}
	}
}

func render(ts analysis.TokenStream) string {
	var sb strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&sb, "%q %d-%d @%d %d\n", t.Term, t.Start, t.End, t.Position, t.Type)
	}
	return sb.String()
}

// checkStemIDs requires the Scratch's stem ids of a stream to name its
// tokens' terms, below NumStems, one id a term.
func checkStemIDs(t *testing.T, s *Scratch, got analysis.TokenStream, what string) {
	t.Helper()
	ids := s.StemIDs()
	if len(ids) != len(got) {
		t.Fatalf("%s: %d stem ids for %d tokens", what, len(ids), len(got))
	}
	byTerm := map[string]int32{}
	for j, id := range ids {
		if id < 0 {
			continue
		}
		if int(id) >= s.NumStems() || s.Stem(id) != string(got[j].Term) {
			t.Fatalf("%s: token %d %q has stem id %d of %d", what, j, got[j].Term, id, s.NumStems())
		}
		if other, ok := byTerm[s.Stem(id)]; ok && other != id {
			t.Fatalf("%s: term %q has stem ids %d and %d", what, got[j].Term, other, id)
		}
		byTerm[s.Stem(id)] = id
	}
}
