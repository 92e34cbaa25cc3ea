package budget

import (
	"strings"

	"github.com/autorag/autorag/engine/analyze"
)

// Matcher finds a query's terms in lines of text as the index saw them: a
// word matches when the analyzer (lower-casing, identifier splitting,
// stemming) turns it into one of the query's terms.
type Matcher struct{ terms map[string]bool }

// NewMatcher returns the matcher of query's terms.
func NewMatcher(query string) *Matcher {
	m := &Matcher{terms: map[string]bool{}}
	for _, t := range analyze.Terms(query) {
		m.terms[t] = true
	}
	return m
}

// Cut is a passage trimmed to some of its lines.
type Cut struct {
	Text    string
	Lines   [][2]int // the line ranges Text shows (with first > 0)
	Trimmed bool     // some of the passage was left out
}

// Trim cuts text to limit tokens: one contiguous run of its lines around
// those holding the most distinct query terms (see window.go), the line
// after it in part when room is left, or its best line cut inside when
// that line alone is over limit. first is the line number of text's first
// line (0: the passage has no line numbers, e.g. a PDF page). Text that
// fits is returned whole; when no line matches, the opening lines are
// kept; when not even a word fits, the Cut is empty.
func Trim(text string, first int, m *Matcher, limit int) Cut {
	lines := splitLines(text)
	cost, total := lineCosts(lines)
	if total <= limit && Count(text) <= limit {
		return Cut{Text: text, Lines: ranges(allChosen(len(lines)), first)}
	}
	return cutLines(lines, cost, first, m, limit, Count)
}

// CutBytes is Trim with limit in bytes (agentapi's snippets).
func CutBytes(text string, first int, m *Matcher, limit int) Cut {
	if len(text) <= limit {
		return Cut{Text: text, Lines: ranges(allChosen(len(splitLines(text))), first)}
	}
	lines := splitLines(text)
	cost := make([]int, len(lines))
	for i, l := range lines {
		cost[i] = len(l) + 1
	}
	return cutLines(lines, cost, first, m, limit, Bytes)
}

func cutLines(lines []string, cost []int, first int, m *Matcher, limit int, measure Measure) Cut {
	terms, at := m.Terms(lines)
	score := make([]int, len(lines))
	for i, ts := range terms {
		score[i] = len(ts)
	}
	c := &cutter{lines: lines, cost: cost, terms: terms, score: score, at: at, limit: limit, m: measure}
	out, lo := c.cut()
	if len(out) == 0 {
		return Cut{}
	}
	var shown [][2]int
	if first > 0 {
		shown = [][2]int{{first + lo, first + lo + len(out) - 1}}
	}
	return Cut{Text: join(out), Lines: shown, Trimmed: true}
}

// ranges are the runs of chosen lines as 1-based inclusive line numbers.
func ranges(chosen []bool, first int) [][2]int {
	if first <= 0 {
		return nil
	}
	var out [][2]int
	for i := 0; i < len(chosen); i++ {
		if !chosen[i] {
			continue
		}
		j := i
		for j+1 < len(chosen) && chosen[j+1] {
			j++
		}
		out = append(out, [2]int{first + i, first + j})
		i = j
	}
	return out
}

func allChosen(n int) []bool {
	c := make([]bool, n)
	for i := range c {
		c[i] = true
	}
	return c
}

// splitLines splits text into lines, without the last line's end.
func splitLines(text string) []string {
	return strings.Split(strings.TrimRight(text, "\n"), "\n")
}
