package budget

import "fmt"

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
	// Share divides what is left of the budget evenly among the passages
	// not yet placed: a passage within its share is shown whole, a longer
	// one trimmed to its best lines within the share; what a short one
	// leaves goes to those after it. The default.
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
	// MinTokens is the least text of a trimmed passage worth showing;
	// 0 = 40.
	MinTokens int
}

// Fit returns what of ps (best first) fits in o.MaxTokens, in rank order,
// and the tokens it uses.
func Fit(ps []Passage, o Options) ([]Shown, int, error) {
	if o.MaxTokens <= 0 {
		return nil, 0, fmt.Errorf("max tokens must be positive, got %d", o.MaxTokens)
	}
	if o.MinTokens <= 0 {
		o.MinTokens = 40
	}
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

func (f *fitter) share(ps []Passage) {
	for i, p := range ps {
		head := Count(p.Head)
		limit := f.left/(len(ps)-i) - head
		if c := Count(p.Text); c+head <= f.left && c <= limit {
			f.add(i, head, Cut{Text: p.Text, Lines: wholeLines(p)})
			continue
		}
		// Below its share, a passage still gets MinTokens when that much
		// is left: a line or two of the best-ranked passages is worth more
		// than the tail of the ranking.
		limit = max(limit, min(f.o.MinTokens, f.left-head))
		if limit <= 0 {
			return
		}
		f.add(i, head, Trim(p.Text, p.First, f.m, limit))
	}
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
