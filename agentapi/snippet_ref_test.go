package agentapi

import (
	"cmp"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/budget"
	"github.com/autorag/autorag/engine/analyze"
)

func termSet(query string) map[string]bool {
	terms := map[string]bool{}
	for _, t := range analyze.Terms(query) {
		terms[t] = true
	}
	return terms
}

// refSnippet is snippet as it was before it chose lines through budget.Choose
// and scored them through budget.Matcher: it keeps the lines of text that hold the most distinct query
// terms, then their neighbours, while they fit in limit bytes; when no
// line matches, the opening lines. Each run of lines left out becomes a
// marker line naming them, as with max_tokens ("[… lines 4-9 omitted …]").
// first is the line number of text's first line (0: no line numbers, a
// PDF page). Text within limit is returned whole (trimmed false); a line
// longer than limit on its own is cut at a word boundary and ends in "…".
func refSnippet(text string, first int, terms map[string]bool, limit int) (out string, shown [][2]int, trimmed bool) {
	if len(text) <= limit {
		return text, nil, false
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	score, at := refLineScores(text, lines, terms)
	order := make([]int, 0, len(lines))
	for i, s := range score {
		if s > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	if len(order) == 0 {
		for i := range lines {
			if strings.TrimSpace(lines[i]) != "" {
				order = append(order, i)
				break
			}
		}
	}
	chosen := make([]bool, len(lines))
	used := 0
	take := func(i int) { // a blank line is shown only between two chosen ones (budget.Render)
		if i >= 0 && i < len(lines) && !chosen[i] && strings.TrimSpace(lines[i]) != "" && used+len(lines[i])+1 <= limit {
			chosen[i], used = true, used+len(lines[i])+1
		}
	}
	for _, i := range order {
		take(i)
	}
	for _, i := range order {
		if chosen[i] {
			take(i + 1)
			take(i - 1)
		}
	}
	if !slices.Contains(chosen, true) && len(order) > 0 { // the best line alone is too long
		i := order[0]
		chosen[i] = true
		lines = slices.Clone(lines)
		lines[i] = clipLine(lines[i], max(at[i], 0), limit)
	}
	c := budget.Render(lines, chosen, first)
	return c.Text, c.Lines, true // a clipped line is trimmed too, with no marker
}

// lineScores counts the distinct query terms of each line, and says where
// in the line the first one starts (-1: none). It analyzes text once: a
// token never spans a line break, and the analyzer treats each token
// alone.
func refLineScores(text string, lines []string, terms map[string]bool) (score, at []int) {
	score, at = make([]int, len(lines)), make([]int, len(lines))
	for i := range at {
		at[i] = -1
	}
	if len(terms) == 0 {
		return score, at
	}
	starts := make([]int, len(lines))
	off := 0
	for i, l := range lines {
		starts[i] = off
		off += len(l) + 1
	}
	seen := make([]map[string]bool, len(lines))
	for _, t := range analyze.Analyzer().Analyze([]byte(text)) {
		term := string(t.Term)
		if !terms[term] {
			continue
		}
		i := sort.SearchInts(starts, t.Start+1) - 1
		if i < 0 || i >= len(lines) {
			continue
		}
		if seen[i] == nil {
			seen[i], at[i] = map[string]bool{}, t.Start-starts[i]
		}
		if !seen[i][term] {
			seen[i][term] = true
			score[i]++
		}
	}
	return score, at
}

// TestSnippetMatchesReference: snippets cut through budget's scorer and
// Choose are the snippets cut before, on random passages: long and short
// lines, blank lines, identifiers, stems, other scripts, lines longer than
// the limit.
func TestSnippetMatchesReference(t *testing.T) {
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
		first, limit := r.IntN(3)*40, 40+r.IntN(600)
		wt, ws, wtr := refSnippet(text, first, termSet(q), limit)
		gt, gs, gtr := snippet(text, first, budget.NewMatcher(q), limit)
		if d := gocmp.Diff(wt, gt); d != "" || !gocmp.Equal(ws, gs) || wtr != gtr {
			t.Fatalf("query %q limit %d first %d: shown %v/%v trimmed %v/%v (-old +new):\n%s", q, limit, first, ws, gs, wtr, gtr, d)
		}
	}
}

// BenchmarkSnippet cuts ten passages like the agents benchmark's (about
// 2,100 bytes of words of testdata/corpus, frequent ones far more often,
// in lines of 12) for a two-word query: old is refSnippet (every word
// analyzed), new is snippet (budget's scorer, its memo warm after the
// first answer, as in a server that has seen the vocabulary;
// budget's BenchmarkScores measures it cold).
func BenchmarkSnippet(b *testing.B) {
	passages, q := benchPassages(b)
	b.Run("old", func(b *testing.B) {
		for b.Loop() {
			terms := termSet(q)
			for _, p := range passages {
				refSnippet(p, 1, terms, SnippetChars)
			}
		}
	})
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			m := budget.NewMatcher(q)
			for _, p := range passages {
				snippet(p, 1, m, SnippetChars)
			}
		}
	})
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
