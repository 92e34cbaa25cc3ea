package budget

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/analyze"
)

// The references below are the line scorer as it was before it
// remembered words' terms: every word analyzed with its line.

// refFound is the distinct query terms of line, in the order they first
// occur, analyzing the line whole.
func refFound(m *Matcher, line string) []string {
	var out []string
	for _, t := range analyze.Analyzer().Analyze([]byte(line)) {
		if term := string(t.Term); m.terms[term] && !slices.Contains(out, term) {
			out = append(out, term)
		}
	}
	return out
}

func refDistinct(m *Matcher, line string) (n, at int) {
	at = -1
	if len(m.terms) == 0 || strings.TrimSpace(line) == "" {
		return 0, at
	}
	seen := map[string]bool{}
	for _, t := range analyze.Analyzer().Analyze([]byte(line)) {
		if term := string(t.Term); m.terms[term] {
			if at < 0 {
				at = t.Start
			}
			seen[term] = true
		}
	}
	return len(seen), at
}

// scoreWords are words that stress the analyzer: stems, stop words,
// possessives, identifiers, numbers, punctuation inside words, other
// scripts and blanks other than spaces.
var scoreWords = []string{
	"heron", "herons", "Heron's", "fishing", "fishes", "fished", "the", "a", "and", "of",
	"refresh", "refreshed", "Refreshing", "index", "indexes", "indexing", "query", "queries",
	"parseHTTPRequest", "parse_http_request", "HTTPServer", "getIndexRefresh", "x86_64",
	"3.14", "v1.2.3", "e.g.", "don't", "it's", "O'Neil", "foo.bar", "foo/bar", "a-b", "(heron)",
	"heron,", "\"query\"", "relational", "generalization", "happy", "happiness", "bay", "ponies",
	"café", "naïve", "Straße", "日本語", "索引", "индекс", "Ölçü", "ﬁsh", "İstanbul",
	"\t", "\r", "\v", " ", "  ", "é́", "water", "people", "system", "systems",
	"c.JSON(http.StatusOK,", "RouterGroup", "ctx.Context()", "_private", "'quoted'", "3DModel",
	"Context's", "IndexHerons", "x.refreshIndex", "HERONs", "HTTPHerons", "(*Index).Query", "2heron",
	"heron2x", "re-index", "fish'n'chips", "PeopleSystem", "queryIndex_v2", "--refresh", "{water}",
}

func randomLine(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(14) {
		b.WriteString(scoreWords[r.IntN(len(scoreWords))])
		switch r.IntN(6) {
		case 0:
			b.WriteByte('\t')
		case 1: // no blank: words run together
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// TestScoresMatchPerLineAnalysis: Scores and Found, which analyze an
// ASCII line word by word through the memo, find in every line the terms
// and first offsets that analyzing the line whole finds.
func TestScoresMatchPerLineAnalysis(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 25))
	queries := []string{"heron", "refresh index", "parse http request", "fish heron happy", "café 日本語 straße", "o'neil 3.14", "water people system", "bay pony generalize", "istanbul ölçü fish"}
	for round := range 400 {
		m := NewMatcher(queries[round%len(queries)])
		lines := make([]string, 1+r.IntN(30))
		for i := range lines {
			lines[i] = randomLine(r)
		}
		score, at := m.Scores(lines)
		found := m.Found(lines)
		for i, l := range lines {
			n, a := refDistinct(m, l)
			if score[i] != n || at[i] != a {
				t.Fatalf("query %q line %q: score %d at %d, analyzed whole: %d at %d", queries[round%len(queries)], l, score[i], at[i], n, a)
			}
			if want := refFound(m, l); !slices.Equal(found[i], want) {
				t.Fatalf("query %q line %q: found %q, analyzed whole: %q", queries[round%len(queries)], l, found[i], want)
			}
		}
	}
}

// TestSpans: the ranges to highlight are the words the analyzer turns
// into query terms (stems, identifier parts, any case), in order, with
// nothing for a query without terms.
func TestSpans(t *testing.T) {
	line := "We rotate the signing keys; jwtSigningKey rotated, JWTs too. Café keys"
	words := func(spans [][2]int) []string {
		var out []string
		for _, s := range spans {
			out = append(out, line[s[0]:s[1]])
		}
		return out
	}
	want := []string{"rotate", "signing", "keys", "jwt", "Signing", "Key", "rotated", "JWTs", "keys"}
	if got := words(NewMatcher("rotating jwt signing key").Spans(line)); !slices.Equal(got, want) {
		t.Errorf("spans %q, want %q", got, want)
	}
	if got := NewMatcher("the").Spans(line); got != nil {
		t.Errorf("a query of stop words highlights %v", got)
	}
}

// TestTrimIsOneRun: whatever the passage, query and limit, Trim shows
// one contiguous run of the passage's lines (the last possibly in part, or
// one line cut inside) within the limit, cited by one range, and holds a
// matching line when the passage has one.
func TestTrimIsOneRun(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 25))
	queries := []string{"heron", "refresh index", "parse http request", "water people system", "kingfisher", ""}
	for round := range 300 {
		lines := make([]string, 1+r.IntN(40))
		for i := range lines {
			if r.IntN(5) > 0 {
				lines[i] = randomLine(r)
			}
		}
		text := strings.Join(lines, "\n") + "\n"
		q := queries[round%len(queries)]
		limit, first := 10+r.IntN(200), 1+r.IntN(3)*17
		m := NewMatcher(q)
		c := Trim(text, first, m, limit)
		if c.Text == "" {
			continue
		}
		if Count(c.Text) > limit {
			t.Fatalf("round %d: %d tokens over limit %d", round, Count(c.Text), limit)
		}
		if !c.Trimmed {
			if c.Text != text {
				t.Fatalf("round %d: untrimmed but changed", round)
			}
			continue
		}
		got := splitLines(c.Text)
		if len(c.Lines) != 1 || c.Lines[0][1]-c.Lines[0][0]+1 != len(got) {
			t.Fatalf("round %d: ranges %v for %d lines", round, c.Lines, len(got))
		}
		lo := c.Lines[0][0] - first
		for i, l := range got {
			src := lines[lo+i]
			if l != src && !strings.Contains(l, strings.Trim(strings.TrimSpace(l), Ellipsis)) {
				t.Fatalf("round %d: line %d %q is not of %q", round, lo+i, l, src)
			}
			if l != src && !strings.Contains(src, strings.Trim(l, Ellipsis)) {
				t.Fatalf("round %d: line %d %q is not part of %q", round, lo+i, l, src)
			}
		}
		if score, _ := m.Scores(lines); slices.Max(score) > 0 {
			if shown, _ := m.Scores(got); slices.Max(shown) == 0 {
				t.Fatalf("round %d: no matching line shown:\n%s", round, c.Text)
			}
		}
	}
}

// BenchmarkScores scores the lines of a 2,100-byte passage of prose with
// the word memo warm and emptied before each passage (cold), against
// analyzing each line whole (perline, the scorer before the memo).
func BenchmarkScores(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 25))
	prose := strings.Fields("the heron fishes at dawn while rivers run through quiet valleys and people build systems of water " +
		"index refresh query indexing queries refreshed passages lines budget tokens markers words analyzer stems")
	var lines []string
	for n := 0; n < 2100; {
		var sb strings.Builder
		for range 12 {
			sb.WriteString(prose[r.IntN(len(prose))] + " ")
		}
		lines = append(lines, sb.String())
		n += sb.Len() + 1
	}
	m := NewMatcher("heron water system")
	b.Run("warm", func(b *testing.B) {
		for b.Loop() {
			m.Scores(lines)
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			words.mu.Lock()
			words.m = nil
			words.mu.Unlock()
			m.Scores(lines)
		}
	})
	b.Run("perline", func(b *testing.B) {
		for b.Loop() {
			for _, l := range lines {
				refDistinct(m, l)
			}
		}
	})
}

// TestStemKeepsFirstLetter: a word of letters a-z yields no term, or
// terms that start with its first letter (what lets Scores pass over
// words no query term starts like). Every word of up to three letters is
// tried ("ays" stems to "ai": only the first letter is kept for sure), and
// longer ones made of stems and the suffixes Porter's rules edit.
func TestStemKeepsFirstLetter(t *testing.T) {
	check := func(w string) {
		for _, tok := range analyze.Analyzer().Analyze([]byte(w)) {
			if len(tok.Term) == 0 || tok.Term[0] != w[0] {
				t.Fatalf("%q yields %q", w, tok.Term)
			}
		}
	}
	var word []byte
	var all func(n int)
	all = func(n int) {
		if n == 0 {
			check(string(word))
			return
		}
		for c := byte('a'); c <= 'z'; c++ {
			word = append(word, c)
			all(n - 1)
			word = word[:len(word)-1]
		}
	}
	for n := 1; n <= 3; n++ {
		all(n)
	}
	suffixes := strings.Fields("s ss sses ies eed ed ing y ational tional enci anci izer bli alli entli eli ousli ization ation ator " +
		"alism iveness fulness ousness aliti iviti biliti logi icate ative alize iciti ical ful ness al ance ence er ic able ible ant " +
		"ement ment ent ion ou ism ate iti ous ive ize e ll at bl iz")
	r := rand.New(rand.NewPCG(4, 25))
	for range 60_000 {
		n := 1 + r.IntN(4)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
		}
		w := string(b)
		for range 1 + r.IntN(3) {
			w += suffixes[r.IntN(len(suffixes))]
		}
		check(w)
	}
}
