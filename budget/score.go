package budget

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/autorag/autorag/engine/analyze"
)

// Line scoring: how many distinct query terms each line of a passage
// holds, and where the first one starts. Trim and agentapi's snippets both
// order lines by it; the CLI's text format finds the terms with Found.
// Analyzing every word of every passage with the index's analyzer
// (stemming included) was a fifth of an uncached MCP search, so the terms
// of an ASCII word are remembered: the analyzer treats each token alone
// after tokenizing, and in ASCII text a space or a tab always ends a token, so a word between blanks analyzes alone to
// the terms it yields inside its line (TestScoresMatchPerLineAnalysis
// holds the two to each other). A line with other bytes is analyzed whole,
// as before. Before the memo, a word of lower-case letters a-z only is
// passed over when no query term starts with its first letter: such a
// word is one token, not split, and yields at most its Porter stem, which
// keeps the word's first letter (TestStemKeepsFirstLetter), so it cannot
// yield a query term. Most words of a passage end there.

// wordTerm is a term a word yields and its byte offset in the word.
type wordTerm struct {
	term string
	off  int
}

// wordMemo remembers the terms of words (a pure function of the word's
// bytes); it starts over when it holds memoWords words.
type wordMemo struct {
	mu sync.Mutex
	m  map[string][]wordTerm
}

// memoWords bounds the memo: a few MB at most (a vocabulary of 200,000
// words of about 8 bytes with one term each).
const memoWords = 200_000

var words wordMemo

// termsOf returns the terms word (ASCII, no blanks) yields. The memo's
// lock must be held.
func (w *wordMemo) termsOf(word string) []wordTerm {
	if ts, ok := w.m[word]; ok {
		return ts
	}
	var ts []wordTerm
	for _, t := range analyze.Analyzer().Analyze([]byte(word)) {
		ts = append(ts, wordTerm{term: string(t.Term), off: t.Start})
	}
	if w.m == nil || len(w.m) >= memoWords {
		w.m = make(map[string][]wordTerm, 1024)
	}
	w.m[strings.Clone(word)] = ts
	return ts
}

// Scores returns, for each line, the number of distinct query terms it
// holds and the byte offset in the line of the first term found (-1: none).
func (m *Matcher) Scores(lines []string) (score, at []int) {
	score, at = make([]int, len(lines)), make([]int, len(lines))
	m.scan(lines, func(i int, seen []string, first int) { score[i], at[i] = len(seen), first })
	return score, at
}

// Terms returns, for each line, the distinct query terms it holds (nil:
// none) and the byte offset of the first (-1: none): Scores with the
// terms named.
func (m *Matcher) Terms(lines []string) (terms [][]string, at []int) {
	terms, at = make([][]string, len(lines)), make([]int, len(lines))
	m.scan(lines, func(i int, seen []string, first int) {
		if len(seen) > 0 {
			terms[i] = slices.Clone(seen)
		}
		at[i] = first
	})
	return terms, at
}

// scan calls f with each line's distinct query terms (valid during the
// call) and the offset of the first (-1: none).
func (m *Matcher) scan(lines []string, f func(i int, seen []string, at int)) {
	if len(m.terms) == 0 {
		for i := range lines {
			f(i, nil, -1)
		}
		return
	}
	var initial [256]bool // first bytes of the query's terms
	for t := range m.terms {
		if t != "" {
			initial[t[0]] = true
		}
	}
	ls := lineScore{m: m}
	for i, l := range lines {
		ls.reset()
		if isASCII(l) {
			ls.ascii(l, &initial)
		} else {
			for _, t := range analyze.Analyzer().Analyze([]byte(l)) {
				ls.note(string(t.Term), t.Start)
			}
		}
		f(i, ls.seen, ls.at)
	}
}

// Found returns, for each line, the distinct query terms it holds (nil:
// none), in the order they first occur: what Scores counts, for callers
// that score runs of lines by the terms the run holds in all. Unlike
// Scores it analyzes the lines once, joined, and leaves the memo alone:
// its caller, the CLI's text format, shows a few passages once a process,
// where learning words costs more than it saves (git log -p docs/BENCHMARKS.md,
// "Snippets and shared helpers"). A token never spans a line break
// (Unicode word boundaries always break at one) and the analyzer treats
// each token alone, so the terms are those of each line analyzed alone.
// Of an ASCII line only the words that may yield a query term are joined
// (foundText), as Scores passes over the others.
func (m *Matcher) Found(lines []string) [][]string {
	found := make([][]string, len(lines))
	if len(m.terms) == 0 {
		return found
	}
	text, starts := m.foundText(lines)
	for _, t := range analyze.Analyzer().Analyze(text) {
		term := string(t.Term)
		if !m.terms[term] {
			continue
		}
		if i := sort.SearchInts(starts, t.Start+1) - 1; !slices.Contains(found[i], term) {
			found[i] = append(found[i], term)
		}
	}
	return found
}

// foundText joins lines, each followed by a line break, for Found to
// analyze, and returns where each starts in it. An ASCII line gives only
// its words (between spaces and tabs) that may yield a query term
// (mayYield), one space after each: a space ends a token in ASCII text,
// so each word yields the terms it yields in its line, and the words left
// out yield none.
func (m *Matcher) foundText(lines []string) ([]byte, []int) {
	var initial [256]bool
	for t := range m.terms {
		if t != "" {
			initial[t[0]] = true
		}
	}
	starts := make([]int, len(lines))
	var text []byte
	for i, l := range lines {
		starts[i] = len(text)
		if !isASCII(l) {
			text = append(append(text, l...), '\n')
			continue
		}
		for off, end := blankWord(l, 0); off < len(l); off, end = blankWord(l, end) {
			if w := l[off:end]; mayYield(w, &initial) {
				text = append(append(text, w...), ' ')
			}
		}
		text = append(text, '\n')
	}
	return text, starts
}

// Spans returns the byte ranges of line that hold a query term, in order,
// overlapping ones merged: what a terminal highlights.
func (m *Matcher) Spans(line string) [][2]int {
	if len(m.terms) == 0 {
		return nil
	}
	var out [][2]int
	for _, t := range analyze.Analyzer().Analyze([]byte(line)) { // a copy: Analyze may modify its input
		if !m.terms[string(t.Term)] {
			continue
		}
		if n := len(out); n > 0 && t.Start < out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], t.End)
			continue
		}
		out = append(out, [2]int{t.Start, t.End})
	}
	return out
}

// lineScore gathers the query terms of one line.
type lineScore struct {
	m    *Matcher
	seen []string // distinct query terms found (few)
	at   int      // offset of the first one, -1: none
}

func (ls *lineScore) reset() { ls.seen, ls.at = ls.seen[:0], -1 }

// note counts term, found at byte off of the line, if it is a query term.
func (ls *lineScore) note(term string, off int) {
	if !ls.m.terms[term] {
		return
	}
	if ls.at < 0 {
		ls.at = off
	}
	for _, s := range ls.seen {
		if s == term {
			return
		}
	}
	ls.seen = append(ls.seen, term)
}

// ascii notes the query terms of an ASCII line word by word: words of
// a-z whose first letter starts no query term are passed over, the others'
// terms come from the memo (held for the line).
func (ls *lineScore) ascii(l string, initial *[256]bool) {
	words.mu.Lock()
	defer words.mu.Unlock()
	for off, end := blankWord(l, 0); off < len(l); off, end = blankWord(l, end) {
		if w := l[off:end]; initial[w[0]] || !lowerLetters(w) {
			for _, t := range words.termsOf(w) {
				ls.note(t.term, off+t.off)
			}
		}
	}
}

// blankWord returns where the next word of l (a run of bytes other than
// space and tab) at or after from starts and ends; start is len(l) when
// there is none.
func blankWord(l string, from int) (start, end int) {
	for from < len(l) && (l[from] == ' ' || l[from] == '\t') {
		from++
	}
	end = from
	for end < len(l) && l[end] != ' ' && l[end] != '\t' {
		end++
	}
	return from, end
}

// mayYield reports whether the ASCII word w (no blanks) may yield a term
// whose first byte initial holds. Each term of an ASCII word is a part of
// one of its tokens (identifier splitting), lower-cased and stemmed, and
// keeps the part's first letter (TestStemKeepsFirstLetter). A part starts
// at the word's first byte, after a byte that is neither a letter nor a
// digit (tokens and parts end there; apostrophes are trimmed) or at an
// upper-case letter ("parseHTTPRequest": parse, http, request), never at
// a lower-case letter or a digit that follows a letter or a digit. So w
// can yield a term only when one of these bytes, lower-cased, is in
// initial: in code most words hold none.
func mayYield(w string, initial *[256]bool) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if i > 0 && !isUpper(c) && isAlnum(w[i-1]) {
			continue
		}
		if isUpper(c) {
			c += 'a' - 'A'
		}
		if initial[c] {
			return true
		}
	}
	return false
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

func isAlnum(c byte) bool { return 'a' <= c && c <= 'z' || isUpper(c) || '0' <= c && c <= '9' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// lowerLetters reports whether w holds only the letters a-z.
func lowerLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}
