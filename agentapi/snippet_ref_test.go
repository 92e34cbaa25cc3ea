package agentapi

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autorag/autorag/budget"
)

// TestSnippetIsOneRun: on random passages (long and short lines, blank
// lines, identifiers, stems, other scripts, lines longer than the limit)
// a snippet is within its limit, one run of the passage's lines cited by
// one range, and holds a matching line when the passage has one.
func TestSnippetIsOneRun(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 25))
	vocab := strings.Fields("heron herons Heron's fishing fished the a of and refresh refreshed index indexing queries " +
		"parseHTTPRequest parse_http_request x86_64 3.14 don't O'Neil foo.bar (heron) heron, café Straße 日本語 индекс " +
		"water people system systems kingfisher dawn river")
	queries := []string{"heron", "refresh index", "parse http request", "water people system", "kingfisher", "café 日本語", "zzz"}
	for round := range 500 {
		var b strings.Builder
		for range 1 + r.IntN(40) {
			n := r.IntN(16)
			if r.IntN(20) == 0 {
				n = 150 // a line longer than the limit
			}
			for w := range n {
				if w > 0 {
					b.WriteString([]string{" ", " ", " ", "\t", "  "}[r.IntN(5)])
				}
				b.WriteString(vocab[r.IntN(len(vocab))])
			}
			b.WriteByte('\n')
		}
		text, q := b.String(), queries[round%len(queries)]
		first, limit := 1+r.IntN(3)*40, 40+r.IntN(600)
		m := budget.NewMatcher(q)
		got, shown, trimmed := snippet(text, first, m, limit)
		if !trimmed {
			if got != text || len(text) > limit {
				t.Fatalf("round %d: untrimmed %q", round, got)
			}
			continue
		}
		if len(got) > limit || got == "" && len(shown) > 0 || got != "" && len(shown) != 1 {
			t.Fatalf("round %d: %d bytes of %d, shown %v", round, len(got), limit, shown)
		}
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		score, _ := m.Scores(lines)
		gotScore, _ := m.Scores(strings.Split(got, "\n"))
		if slices.Max(score) > 0 && got != "" && slices.Max(gotScore) == 0 {
			t.Fatalf("round %d: query %q, no matching line in %q", round, q, got)
		}
	}
}

// BenchmarkSnippet cuts ten passages like the agents benchmark's (about
// 2,100 bytes of words of testdata/corpus, frequent ones far more often,
// in lines of 12) for a two-word query (budget's scorer, its memo warm
// after the first answer, as in a server that has seen the vocabulary;
// budget's BenchmarkScores measures it cold).
func BenchmarkSnippet(b *testing.B) {
	passages, q := benchPassages(b)
	for b.Loop() {
		m := budget.NewMatcher(q)
		for _, p := range passages {
			snippet(p, 1, m, SnippetChars)
		}
	}
}

// benchPassages are ten passages of the words of testdata/corpus, drawn
// with a skew towards the first ones, and a query of two of them.
func benchPassages(b *testing.B) ([]string, string) {
	seen := map[string]bool{}
	var vocab []string
	filepath.WalkDir(filepath.Join("..", "testdata", "corpus"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(p)
		for _, w := range strings.FieldsFunc(strings.ToLower(string(data)), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if len(w) > 2 && !seen[w] {
				seen[w] = true
				vocab = append(vocab, w)
			}
		}
		return nil
	})
	if len(vocab) < 100 {
		b.Fatalf("testdata/corpus: %d words", len(vocab))
	}
	r := rand.New(rand.NewPCG(5, 25))
	passages := make([]string, 10)
	for p := range passages {
		var sb strings.Builder
		for sb.Len() < 2100 {
			for range 12 {
				u := r.Float64()
				sb.WriteString(vocab[min(int(float64(len(vocab))*u*u*u), len(vocab)-1)])
				sb.WriteByte(' ')
			}
			sb.WriteString("\n")
		}
		passages[p] = sb.String()
	}
	return passages, vocab[3] + " " + vocab[40]
}
