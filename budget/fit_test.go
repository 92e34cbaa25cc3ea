package budget

import (
	"fmt"
	"strings"
	"testing"
)

// longLine is one soft-wrapped paragraph of about n words: a single line
// holding the query's terms once, near its middle.
func longLine(n int) string {
	var w []string
	for i := range n {
		if i == n/2 {
			w = append(w, "Declare an optional query parameter with a default value of None.")
			continue
		}
		w = append(w, fmt.Sprintf("word%d", i%7))
		if i%12 == 11 {
			w[len(w)-1] += "."
		}
	}
	return strings.Join(w, " ") + "\n"
}

// rankedWithLongFirst is ten passages: rank 1 a single long line, the
// others short passages of a few lines.
func rankedWithLongFirst(words int) []Passage {
	ps := []Passage{{Text: longLine(words), First: 10, Head: "\n[1] docs/query-params.md:10\n```md\n\n```\n"}}
	for i := 2; i <= 10; i++ {
		ps = append(ps, Passage{Text: passage("some other passage", "about parameters in general", "and nothing more"), First: 1,
			Head: fmt.Sprintf("\n[%d] docs/other%d.md:1-3\n```md\n\n```\n", i, i)})
	}
	return ps
}

// TestFitKeepsTheBestLongLine: a best passage that is one long line is
// shown (whole when it fits, cut inside the line when it does not), and
// what the others do not need is not left unused.
func TestFitKeepsTheBestLongLine(t *testing.T) {
	for _, c := range []struct {
		words, budget int
		whole         bool
	}{
		{words: 500, budget: 3000, whole: true},
		{words: 2000, budget: 1000, whole: false},
		{words: 2000, budget: 400, whole: false},
	} {
		ps := rankedWithLongFirst(c.words)
		shown, used, err := Fit(ps, Options{MaxTokens: c.budget, Query: "optional query parameter default"})
		if err != nil {
			t.Fatal(err)
		}
		if len(shown) == 0 || shown[0].Index != 0 {
			t.Errorf("%d words in %d tokens: rank 1 left out (used %d)", c.words, c.budget, used)
			continue
		}
		if got := !shown[0].Trimmed; got != c.whole {
			t.Errorf("%d words in %d tokens: rank 1 whole %v, want %v", c.words, c.budget, got, c.whole)
		}
		if !strings.Contains(shown[0].Text, "optional query parameter with a default value") {
			t.Errorf("%d words in %d tokens: rank 1 lost its answer: %q", c.words, c.budget, shown[0].Text)
		}
		total := 0
		for _, p := range ps {
			total += Count(p.Head) + Count(p.Text)
		}
		if want := min(total, c.budget) * 9 / 10; used < want {
			t.Errorf("%d words in %d tokens: used %d, want at least %d (of %d asked)", c.words, c.budget, used, want, total)
		}
	}
}

// TestTrimPrefersDistinctTerms: the run shown is the one holding the most
// distinct query terms, not the one repeating one term most often.
func TestTrimPrefersDistinctTerms(t *testing.T) {
	var lines []string
	for range 6 {
		lines = append(lines, "the heron heron heron")
	}
	for range 20 {
		lines = append(lines, "filler about nothing in particular at all")
	}
	lines = append(lines, "a heron in the reeds", "by the river at dawn")
	for range 20 {
		lines = append(lines, "filler about nothing in particular at all")
	}
	c := Trim(passage(lines...), 1, NewMatcher("heron river"), 60)
	if !strings.Contains(c.Text, "by the river at dawn") || !strings.Contains(c.Text, "a heron in the reeds") {
		t.Errorf("Trim showed %v:\n%s", c.Lines, c.Text)
	}
}
