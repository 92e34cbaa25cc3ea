package main

import (
	"sort"
	"strings"

	"github.com/autorag/autorag/engine/analyze"
)

// ANSI styles of the text format on a terminal.
const (
	styleMatch = "\x1b[1;31m" // bold red: a matched query term
	styleReset = "\x1b[0m"
)

// matcher finds the query's terms in a passage, as the index saw them: a
// word of the text matches when the analyzer (lower-casing, identifier
// splitting, stemming) turns it into one of the query's terms.
type matcher struct {
	terms map[string]bool
}

func newMatcher(query string) *matcher {
	m := &matcher{terms: map[string]bool{}}
	for _, t := range analyze.Terms(query) {
		m.terms[t] = true
	}
	return m
}

// span is a byte range of a line.
type span struct{ start, end int }

// matches returns the ranges of line that hold a query term, in order and
// without overlaps, and how many distinct terms they cover.
func (m *matcher) matches(line string) ([]span, map[string]bool) {
	if len(m.terms) == 0 {
		return nil, nil
	}
	// Analyze may modify its input in place: give it a copy.
	toks := analyze.Analyzer().Analyze([]byte(line))
	var out []span
	seen := map[string]bool{}
	for _, t := range toks {
		term := string(t.Term)
		if !m.terms[term] {
			continue
		}
		seen[term] = true
		s := span{t.Start, t.End}
		if n := len(out); n > 0 && s.start < out[n-1].end {
			out[n-1].end = max(out[n-1].end, s.end)
			continue
		}
		out = append(out, s)
	}
	return out, seen
}

// bestLines picks the n consecutive non-blank lines of text that hold the
// most distinct query terms (the earliest such window on a tie; the first
// lines when nothing matches). skipped reports whether lines before the
// window were left out.
func (m *matcher) bestLines(text string, n int) (lines []string, skipped bool) {
	all, starts := nonBlankLines(text)
	if len(all) <= n {
		return all, false
	}
	found := m.foundPerLine(text, all, starts)
	// Windows start at the first line or at a line with a match, so that
	// the passage shown opens on what matched.
	best, bestScore := 0, -1
	for i := 0; i+n <= len(all); i++ {
		if i > 0 && len(found[i]) == 0 {
			continue
		}
		if s := distinct(found[i : i+n]); s > bestScore {
			best, bestScore = i, s
		}
	}
	return all[best : best+n], best > 0
}

// nonBlankLines returns the lines of text that hold more than white space,
// without trailing white space, and the byte offset in text where each
// starts.
func nonBlankLines(text string) (lines []string, starts []int) {
	at := 0
	for l := range strings.SplitSeq(text, "\n") {
		start := at
		at += len(l) + 1
		l = strings.TrimRight(l, " \t\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		lines = append(lines, l)
		starts = append(starts, start)
	}
	return lines, starts
}

// foundPerLine returns, for each of lines (starting in text at starts), the
// query terms it holds. It analyzes text once: a token never spans a line
// break (Unicode word boundaries always break at one) and the analyzer
// treats each token alone, so the terms found are those analyzing each
// line alone would find, at a fraction of the calls.
func (m *matcher) foundPerLine(text string, lines []string, starts []int) []map[string]bool {
	found := make([]map[string]bool, len(lines))
	if len(m.terms) == 0 {
		return found
	}
	// Analyze may modify its input in place: give it a copy.
	for _, t := range analyze.Analyzer().Analyze([]byte(text)) {
		term := string(t.Term)
		if !m.terms[term] {
			continue
		}
		i := sort.SearchInts(starts, t.Start+1) - 1
		if i < 0 || t.Start >= starts[i]+len(lines[i]) {
			continue
		}
		if found[i] == nil {
			found[i] = map[string]bool{}
		}
		found[i][term] = true
	}
	return found
}

func distinct(sets []map[string]bool) int {
	u := map[string]bool{}
	for _, s := range sets {
		for k := range s {
			u[k] = true
		}
	}
	return len(u)
}

// highlight wraps the query terms of line in styleMatch.
func (m *matcher) highlight(line string) string {
	spans, _ := m.matches(line)
	if len(spans) == 0 {
		return line
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.WriteString(line[at:s.start])
		b.WriteString(styleMatch)
		b.WriteString(line[s.start:s.end])
		b.WriteString(styleReset)
		at = s.end
	}
	b.WriteString(line[at:])
	return b.String()
}

// clip cuts a line to width runes.
func clip(l string, width int) string {
	if r := []rune(l); len(r) > width {
		return string(r[:width]) + "…"
	}
	return l
}
