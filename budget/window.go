package budget

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// A passage cut to a limit shows one contiguous run of its lines: the
// run, among those that fit, holding the most query terms, shrunk to the
// span from its first to its last matching line and then grown a line at
// a time above and below while it fits; when room is left, the next line
// is shown in part, cut at a sentence or word boundary. A line longer
// than the limit on its own is cut inside, around its first match. One
// run reads as prose or code does and is cited by one line range; the
// best lines scattered through a passage, with a marker for each gap, read
// as fragments and spend their tokens on the markers.

// Measure is what a cut is limited in: Count (tokens) or Bytes.
type Measure func(string) int

// Bytes measures text in bytes (what agentapi's snippets are limited in).
func Bytes(s string) int { return len(s) }

// Ellipsis marks where a line was cut.
const Ellipsis = "…"

// minPartial is, as a share of the limit, the least room worth a part of
// the next line: a few words of it read as noise. The line must cost at
// least half the limit (a paragraph, not a line of code) to be cut.
const minPartial = 4

// cutter cuts the lines of one passage to a limit.
type cutter struct {
	lines []string
	cost  []int      // per line, its line end included
	terms [][]string // the distinct query terms of each line
	score []int      // how many: len(terms[i])
	at    []int      // byte offset of each line's first match, -1: none
	limit int
	m     Measure
}

// cut returns the lines shown (the last possibly in part, or one line cut
// inside) and the index of the first; none when nothing fits.
func (c *cutter) cut() ([]string, int) {
	lo, hi, ok := c.span()
	if !ok {
		return c.clipBest()
	}
	lo, hi = c.grow(lo, hi)
	for lo <= hi {
		if out := c.withPartial(lo, hi); c.m(join(out)) <= c.limit {
			return out, lo
		}
		if out := c.lines[lo : hi+1]; c.m(join(out)) <= c.limit {
			return append([]string(nil), out...), lo
		}
		// The per-line costs were short: drop an edge line, one that
		// matches nothing if there is one, and measure again.
		if c.score[hi] == 0 || c.score[lo] > 0 {
			hi--
		} else {
			lo++
		}
	}
	return c.clipBest()
}

// span finds the run of lines that fits holding the most distinct query
// terms, then the most matches (the sum of the squares of each line's
// distinct terms: a line holding two outweighs two holding one each), the
// earliest on a tie, and returns its first and last matching lines; with
// no match anywhere, the first line that is not blank. ok is false when no
// matching line fits on its own.
func (c *cutter) span() (lo, hi int, ok bool) {
	best, bestA, bestB := 0, 0, 0
	w := runTerms{count: map[string]int{}}
	sum, b := 0, 0
	for a := range c.lines {
		for b < len(c.lines) && sum+c.cost[b] <= c.limit {
			sum += c.cost[b]
			w.add(c.terms[b], 1)
			b++
		}
		if v := w.value(); v > best {
			best, bestA, bestB = v, a, b
		}
		if b > a {
			sum -= c.cost[a]
			w.add(c.terms[a], -1)
		} else {
			b = a + 1
		}
	}
	if best == 0 {
		if c.matches() {
			return 0, 0, false
		}
		for i, l := range c.lines {
			if strings.TrimSpace(l) != "" {
				return i, i, c.cost[i] <= c.limit
			}
		}
		return 0, 0, c.cost[0] <= c.limit
	}
	lo, hi = bestA, bestB-1
	for c.score[lo] == 0 {
		lo++
	}
	for c.score[hi] == 0 {
		hi--
	}
	return lo, hi, true
}

// runTerms counts the query terms of a run of lines.
type runTerms struct {
	count    map[string]int // lines of the run holding each term
	distinct int
	squares  int // sum over the run's lines of their distinct terms squared
}

// add adds (sign 1) or removes (-1) a line holding terms.
func (r *runTerms) add(terms []string, sign int) {
	for _, t := range terms {
		r.count[t] += sign
		if sign > 0 && r.count[t] == 1 || sign < 0 && r.count[t] == 0 {
			r.distinct += sign
		}
	}
	r.squares += sign * len(terms) * len(terms)
}

// value orders runs: distinct terms first, then matches (squares is far
// below 1<<20 in any passage a budget cuts).
func (r *runTerms) value() int { return r.distinct<<20 + r.squares }

func (c *cutter) matches() bool {
	for _, s := range c.score {
		if s > 0 {
			return true
		}
	}
	return false
}

// grow adds lines above and below [lo, hi], one each in turn, while they
// fit; blank lines at the edges are then left out.
func (c *cutter) grow(lo, hi int) (int, int) {
	used := 0
	for i := lo; i <= hi; i++ {
		used += c.cost[i]
	}
	for {
		grew := false
		if lo > 0 && used+c.cost[lo-1] <= c.limit {
			lo, used, grew = lo-1, used+c.cost[lo-1], true
		}
		if hi+1 < len(c.lines) && used+c.cost[hi+1] <= c.limit {
			hi, used, grew = hi+1, used+c.cost[hi+1], true
		}
		if !grew {
			break
		}
	}
	for lo < hi && strings.TrimSpace(c.lines[lo]) == "" {
		lo++
	}
	for hi > lo && strings.TrimSpace(c.lines[hi]) == "" {
		hi--
	}
	return lo, hi
}

// withPartial is lines [lo, hi] and, when room is left and the next line
// is a long one (a soft-wrapped paragraph), its opening words.
func (c *cutter) withPartial(lo, hi int) []string {
	out := append([]string(nil), c.lines[lo:hi+1]...)
	if hi+1 >= len(c.lines) || c.cost[hi+1] < c.limit/2 {
		return out
	}
	room := c.limit - c.m(join(out)) - c.m("\n")
	if room < c.limit/minPartial || room <= c.m(Ellipsis) {
		return out
	}
	if p := Clip(c.lines[hi+1], 0, room, c.m); p != "" {
		out = append(out, p)
	}
	return out
}

// clipBest cuts the best line (the first with the most terms; with no
// match, the first line that is not blank) inside, around its first match.
func (c *cutter) clipBest() ([]string, int) {
	best := -1
	for i, s := range c.score {
		if s > 0 && (best < 0 || s > c.score[best]) {
			best = i
		}
	}
	if best < 0 {
		best = 0
		for best < len(c.lines)-1 && strings.TrimSpace(c.lines[best]) == "" {
			best++
		}
	}
	l := Clip(c.lines[best], max(c.at[best], 0), c.limit-c.m("\n"), c.m)
	if l == "" {
		return nil, 0
	}
	return []string{l}, best
}

func join(lines []string) string { return strings.Join(lines, "\n") + "\n" }

// Clip cuts line to at most limit (in m) around byte offset at: from the
// start of at's sentence when that leaves room for at's words, else from a
// word a quarter of the limit before at; to the last sentence end that
// keeps half of what fits, else the last word boundary. Each cut end is
// marked with Ellipsis. A line within limit is returned whole; "" when
// not even a word (or, with no spaces, a character) fits.
func Clip(line string, at, limit int, m Measure) string {
	if m(line) <= limit {
		return line
	}
	from := clipStart(line, at, limit, m)
	pre := ""
	if from > 0 {
		pre = Ellipsis
	}
	room := limit - m(pre) - m(Ellipsis)
	rest := line[from:]
	to := longestFit(rest, room, m)
	if to == 0 {
		return ""
	}
	if s := lastSentenceEnd(rest[:to]); s > to/2 {
		return pre + rest[:s]
	}
	return pre + strings.TrimRight(rest[:to], " ") + Ellipsis
}

// clipStart is where Clip starts line for a match at byte at.
func clipStart(line string, at, limit int, m Measure) int {
	if at <= 0 {
		return 0
	}
	if s := sentenceStart(line, at); m(line[s:at]) <= limit/2 {
		return s
	}
	// The word boundaries before at, nearest last: the earliest whose
	// text up to at fits a quarter of the limit.
	var starts []int
	for i := 1; i < at; i++ {
		if line[i-1] == ' ' && line[i] != ' ' {
			starts = append(starts, i)
		}
	}
	k := sort.Search(len(starts), func(k int) bool { return m(line[starts[k]:at]) <= limit/4 })
	if k == len(starts) {
		return wordStart(line, at)
	}
	return starts[k]
}

// longestFit is the largest word boundary (else, with none, rune
// boundary) e of s with m(s[:e]) <= room; 0 when none.
func longestFit(s string, room int, m Measure) int {
	var ends []int
	for i := 1; i < len(s); i++ {
		if s[i] == ' ' && s[i-1] != ' ' {
			ends = append(ends, i)
		}
	}
	ends = append(ends, len(s))
	k := sort.Search(len(ends), func(k int) bool { return m(s[:ends[k]]) > room })
	if k > 0 {
		return ends[k-1]
	}
	// Not even the first word fits: cut it at a rune boundary.
	e := sort.Search(len(s), func(e int) bool { return m(s[:e+1]) > room })
	for e > 0 && !utf8.RuneStart(s[e]) {
		e--
	}
	return e
}

// sentenceStart is the byte offset where the sentence holding at starts.
func sentenceStart(line string, at int) int {
	for i := at - 1; i > 0; i-- {
		if line[i] == ' ' && isStop(line[i-1]) {
			return i + 1
		}
	}
	return 0
}

// lastSentenceEnd is the offset just past the last full stop, question
// or exclamation mark of s that ends s or is followed by a space; 0: none.
func lastSentenceEnd(s string) int {
	for i := len(s); i > 0; i-- {
		if isStop(s[i-1]) && (i == len(s) || s[i] == ' ') {
			return i
		}
	}
	return 0
}

func isStop(b byte) bool { return b == '.' || b == '?' || b == '!' }

// wordStart is the start of the word holding byte at.
func wordStart(line string, at int) int {
	if i := strings.LastIndexByte(line[:at], ' '); i >= 0 {
		return i + 1
	}
	for at > 0 && !utf8.RuneStart(line[at]) {
		at--
	}
	return at
}
