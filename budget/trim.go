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

// distinct is the number of distinct query terms line holds.
func (m *Matcher) distinct(line string) int {
	if len(m.terms) == 0 || strings.TrimSpace(line) == "" {
		return 0
	}
	seen := map[string]bool{}
	for _, t := range analyze.Analyzer().Analyze([]byte(line)) {
		if term := string(t.Term); m.terms[term] {
			seen[term] = true
		}
	}
	return len(seen)
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
	chosen := make([]bool, len(lines))
	used := 0
	take := func(i int) {
		if i < 0 || i >= len(lines) || chosen[i] {
			return
		}
		if c := cost[i] + markerCost; used+c <= limit {
			chosen[i], used = true, used+c
		}
	}
	order := priority(lines, m)
	for _, i := range order {
		take(i)
	}
	for _, i := range order {
		if chosen[i] {
			take(i + 1)
			take(i - 1)
		}
	}
	for i := range lines { // no match, or room left: the opening lines
		if used >= limit {
			break
		}
		take(i)
	}
	if !slices.Contains(chosen, true) {
		return Cut{} // not even one line fits
	}
	return shrink(lines, chosen, first, order, limit)
}

// priority orders the lines holding query terms by how many distinct ones
// they hold, earliest first on a tie.
func priority(lines []string, m *Matcher) []int {
	score := make([]int, len(lines))
	var order []int
	for i, l := range lines {
		if score[i] = m.distinct(l); score[i] > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return score[b] - score[a] })
	return order
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
