package budget

import (
	"fmt"
	"math"
	"slices"
)

// Passage is one ranked result to show.
type Passage struct {
	Text  string
	First int    // line number of Text's first line; 0 when it has none (a PDF page)
	Head  string // what the output prints before Text (its citation); counted too
}

// Shown is a passage as it fits the budget.
type Shown struct {
	Index  int // into the passages given to Fit
	Cut        // its text, whole or trimmed
	Tokens int // Head and Text
}

// Strategy says how Fit spends the budget.
type Strategy string

// Strategies (measured against each other by bench/budget).
const (
	// Share shows the best passages first, as many as leave each at
	// least MinTokens: whole when they fit their share of what is left,
	// else cut to one run of lines around their best (see fitter.share).
	// The default.
	Share Strategy = "share"
	// Whole shows whole passages in rank order, leaving out those that do
	// not fit what is left.
	Whole Strategy = "whole"
	// Tail shows whole passages while they fit and trims the first that
	// does not to what is left, then stops.
	Tail Strategy = "tail"
)

// Options configure Fit.
type Options struct {
	MaxTokens int      // the budget; must be positive
	Query     string   // whose terms choose the lines a trimmed passage keeps
	Strategy  Strategy // "" = Share
	// MinTokens is the least a trimmed passage is worth showing in
	// (its head included), at most half the budget; 0 = DefaultMinTokens.
	MinTokens int
}

// DefaultMinTokens is the least a trimmed passage is given: about ten
// lines of code or a paragraph of prose. On NFCorpus dev (bench/agents
// budget; README, "Answers sized to a token budget") 300 shows more of
// the relevant passages' text at 1,000 and 2,000 tokens but fewer
// relevant documents (nDCG@10 of what is shown 0.2186 and 0.2829, against
// 0.2523 and 0.3163 at 200).
const DefaultMinTokens = 200

// Fit returns what of ps (best first) fits in o.MaxTokens, in rank order,
// and the tokens it uses.
func Fit(ps []Passage, o Options) ([]Shown, int, error) {
	if o.MaxTokens <= 0 {
		return nil, 0, fmt.Errorf("max tokens must be positive, got %d", o.MaxTokens)
	}
	if o.MinTokens <= 0 {
		o.MinTokens = DefaultMinTokens
	}
	o.MinTokens = min(o.MinTokens, max(o.MaxTokens/2, 1)) // a small budget still shows a cut
	f := &fitter{o: o, m: NewMatcher(o.Query), left: o.MaxTokens}
	switch o.Strategy {
	case "", Share:
		f.share(ps)
	case Whole:
		f.whole(ps)
	case Tail:
		f.tail(ps)
	default:
		return nil, 0, fmt.Errorf("unknown budget strategy %q", o.Strategy)
	}
	return f.out, o.MaxTokens - f.left, nil
}

type fitter struct {
	o    Options
	m    *Matcher
	left int
	out  []Shown
}

// share places the passages best first: each of the first n (as many as
// leave each at least MinTokens) gets up to the level that shares what is
// left among it and those after it, a passage under the level taking only
// what it needs (the level of the rest rises by what it leaves); a longer
// one is cut to the level. What a cut leaves unused flows on to the next,
// and what the first n leave goes to the passages after them.
func (f *fitter) share(ps []Passage) {
	need := make([]int, len(ps))
	for i, p := range ps {
		need[i] = Count(p.Head) + Count(p.Text)
	}
	n := len(ps)
	for n > 1 && level(need[:n], f.left) < f.o.MinTokens {
		n--
	}
	for i, p := range ps {
		if f.left <= 0 {
			return
		}
		limit := f.left
		if i < n {
			limit = level(need[i:n], f.left)
		}
		if need[i] <= limit {
			f.add(i, need[i]-Count(p.Text), Cut{Text: p.Text, Lines: wholeLines(p)})
			continue
		}
		if limit >= f.o.MinTokens {
			head := Count(p.Head)
			f.add(i, head, Trim(p.Text, p.First, f.m, limit-head))
		}
	}
}

// level is the most each of need may take so that all fit in budget: the
// largest L with the sum of min(need[i], L) at most budget (a need under
// L is met whole); math.MaxInt when all fit.
func level(need []int, budget int) int {
	sorted := slices.Clone(need)
	slices.Sort(sorted)
	for k, d := range sorted {
		if rest := len(sorted) - k; d*rest > budget {
			return budget / rest
		}
		budget -= d
	}
	return math.MaxInt
}

func (f *fitter) whole(ps []Passage) {
	for i, p := range ps {
		head, c := Count(p.Head), Count(p.Text)
		if head+c <= f.left {
			f.add(i, head, Cut{Text: p.Text, Lines: wholeLines(p)})
		}
	}
}

func (f *fitter) tail(ps []Passage) {
	for i, p := range ps {
		head, c := Count(p.Head), Count(p.Text)
		if head+c <= f.left {
			f.add(i, head, Cut{Text: p.Text, Lines: wholeLines(p)})
			continue
		}
		if limit := f.left - head; limit >= f.o.MinTokens {
			f.add(i, head, Trim(p.Text, p.First, f.m, limit))
		}
		return
	}
}

func (f *fitter) add(i, head int, c Cut) {
	if c.Text == "" {
		return // nothing of it fits
	}
	n := head + Count(c.Text)
	f.left -= n
	f.out = append(f.out, Shown{Index: i, Cut: c, Tokens: n})
}

func wholeLines(p Passage) [][2]int {
	if p.First <= 0 {
		return nil
	}
	return ranges(allChosen(len(splitLines(p.Text))), p.First)
}
