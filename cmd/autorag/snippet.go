package main

import (
	"slices"
	"strings"

	"github.com/autorag/autorag/budget"
)

// ANSI styles of the text format on a terminal.
const (
	styleMatch = "\x1b[1;31m" // bold red: a matched query term
	styleReset = "\x1b[0m"
)

// matcher is budget's Matcher (the query's terms as the index saw them)
// with what the text format does with it: choose the lines to show and
// highlight the terms in them.
type matcher struct{ *budget.Matcher }

func newMatcher(query string) matcher { return matcher{budget.NewMatcher(query)} }

// bestLines picks the n consecutive non-blank lines of text that hold the
// most distinct query terms, found by budget's line scorer as --max-tokens
// and MCP snippets find them (the earliest such window on a tie; the
// first lines when nothing matches). skipped reports whether lines before
// the window were left out.
func (m matcher) bestLines(text string, n int) (lines []string, skipped bool) {
	all := nonBlankLines(text)
	if len(all) <= n {
		return all, false
	}
	found := m.Found(all)
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
// without trailing white space.
func nonBlankLines(text string) []string {
	var lines []string
	for l := range strings.SplitSeq(text, "\n") {
		if l = strings.TrimRight(l, " \t\r"); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// distinct counts the distinct terms of a window's lines (few terms, few
// lines: a list beats a map).
func distinct(window [][]string) int {
	var u []string
	for _, terms := range window {
		for _, t := range terms {
			if !slices.Contains(u, t) {
				u = append(u, t)
			}
		}
	}
	return len(u)
}

// highlight wraps the query terms of line in styleMatch.
func (m matcher) highlight(line string) string {
	spans := m.Spans(line)
	if len(spans) == 0 {
		return line
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.WriteString(line[at:s[0]])
		b.WriteString(styleMatch)
		b.WriteString(line[s[0]:s[1]])
		b.WriteString(styleReset)
		at = s[1]
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
