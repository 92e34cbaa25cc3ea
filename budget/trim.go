package budget

import (
	"fmt"
	"slices"
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
	Trimmed bool     // some lines were left out (marked in Text)
}

// markerCost is what an omission marker costs, in tokens (checked by
// TestMarkerCost).
const markerCost = 12

// Trim keeps the lines of text that hold the most distinct query terms,
// then their neighbours, while they fit in limit tokens; each run of lines
// left out becomes one marker line naming them. first is the line number
// of text's first line (0: the passage has no line numbers, e.g. a PDF
// page). Text that fits is returned whole; when no line matches, the first
// lines are kept; when not even one line fits, the Cut is empty.
func Trim(text string, first int, m *Matcher, limit int) Cut {
	lines := splitLines(text)
	cost, total := lineCosts(lines)
	if total <= limit && Count(text) <= limit {
		return Cut{Text: text, Lines: ranges(allChosen(len(lines)), first)}
	}
	score, _ := m.Scores(lines)
	order := Priority(score)
	c := Choose(len(lines), order, func(i int) (int, bool) { return cost[i] + markerCost, true }, limit)
	for i := range lines { // no match, or room left: the opening lines
		if c.Used >= limit {
			break
		}
		c.Take(i)
	}
	if !slices.Contains(c.Chosen, true) {
		return Cut{} // not even one line fits
	}
	return shrink(lines, c.Chosen, first, order, limit)
}

// Priority orders the lines whose score (Matcher.Scores) is positive by
// score, earliest first on a tie.
func Priority(score []int) []int {
	var order []int
	for i, s := range score {
		if s > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return score[b] - score[a] })
	return order
}

// Choice is a set of lines being chosen within a limit: Trim's in tokens,
// agentapi's snippets' in bytes.
type Choice struct {
	Chosen []bool
	Used   int
	limit  int
	cost   func(i int) (int, bool)
}

// Choose takes the lines of order (best first), then each taken line's
// next and previous neighbours, while their costs fit in limit. cost says
// what line i costs and whether it may be taken at all.
func Choose(n int, order []int, cost func(i int) (int, bool), limit int) *Choice {
	c := &Choice{Chosen: make([]bool, n), limit: limit, cost: cost}
	for _, i := range order {
		c.Take(i)
	}
	for _, i := range order {
		if c.Chosen[i] {
			c.Take(i + 1)
			c.Take(i - 1)
		}
	}
	return c
}

// Take chooses line i if it exists, is not chosen yet, may be taken and
// fits in what is left.
func (c *Choice) Take(i int) {
	if i < 0 || i >= len(c.Chosen) || c.Chosen[i] {
		return
	}
	if n, ok := c.cost(i); ok && c.Used+n <= c.limit {
		c.Chosen[i], c.Used = true, c.Used+n
	}
}

// shrink renders the chosen lines and, while the exact count is over
// limit (the per-line estimate can be short by a few tokens), drops the
// lowest-priority chosen line.
func shrink(lines []string, chosen []bool, first int, order []int, limit int) Cut {
	for {
		c := Render(lines, chosen, first)
		if Count(c.Text) <= limit {
			return c
		}
		if !dropOne(chosen, order) || !slices.Contains(chosen, true) {
			return Cut{}
		}
	}
}

// dropOne unchooses the last chosen line that is not a match, else the
// lowest-priority match; it reports whether one was chosen.
func dropOne(chosen []bool, order []int) bool {
	isMatch := map[int]bool{}
	for _, i := range order {
		isMatch[i] = true
	}
	for i := len(chosen) - 1; i >= 0; i-- {
		if chosen[i] && !isMatch[i] {
			chosen[i] = false
			return true
		}
	}
	for j := len(order) - 1; j >= 0; j-- {
		if chosen[order[j]] {
			chosen[order[j]] = false
			return true
		}
	}
	return false
}

// Render joins the chosen lines, a marker in place of each run left out
// (a run of blank lines between chosen ones is kept as is); chosen is not
// modified. Trim and agentapi's snippets both render through it.
func Render(lines []string, chosen []bool, first int) Cut {
	chosen = slices.Clone(chosen)
	for i := range lines { // blank gaps inside the shown text cost nothing worth a marker
		if !chosen[i] && strings.TrimSpace(lines[i]) == "" && between(chosen, i) {
			chosen[i] = true
		}
	}
	var b strings.Builder
	trimmed := false
	for i := 0; i < len(lines); {
		if chosen[i] {
			b.WriteString(lines[i])
			b.WriteByte('\n')
			i++
			continue
		}
		j := i
		for j < len(lines) && !chosen[j] {
			j++
		}
		trimmed = true
		b.WriteString(Marker(i, j, first))
		i = j
	}
	return Cut{Text: b.String(), Lines: ranges(chosen, first), Trimmed: trimmed}
}

// between reports whether a chosen line lies on each side of i.
func between(chosen []bool, i int) bool {
	return slices.Contains(chosen[:i], true) && slices.Contains(chosen[i+1:], true)
}

// Marker stands for lines [i, j) of a passage whose first line is first
// (0: unknown): what a trimmed passage shows where lines were left out.
func Marker(i, j, first int) string {
	switch {
	case first <= 0:
		return "[… omitted …]\n"
	case j-i == 1:
		return fmt.Sprintf("[… line %d omitted …]\n", first+i)
	}
	return fmt.Sprintf("[… lines %d-%d omitted …]\n", first+i, first+j-1)
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
