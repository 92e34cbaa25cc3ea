package agentapi

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/autorag/autorag/budget"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
)

// Citation is where a hit is, as a prompt cites it: "docs/a.md:3-9"
// ("docs/a.md:3-5,9-12" for a trimmed passage), "report.pdf#page=2",
// "mail.eml#attachment=report.pdf&page=2"; prefixed with its root's name
// and a slash when withRoot.
func Citation(h Hit, withRoot bool) string {
	loc := h.Path
	r := h.Result
	switch {
	case r.Attachment != "":
		loc += "#attachment=" + fragmentEscaper.Replace(r.Attachment)
		if r.Page > 0 {
			loc += fmt.Sprintf("&page=%d", r.Page)
		}
	case r.Page > 0:
		loc += fmt.Sprintf("#page=%d", r.Page)
	case len(h.ShownLines) > 0:
		parts := make([]string, len(h.ShownLines))
		for i, l := range h.ShownLines {
			parts[i] = lineRange(l)
		}
		loc += ":" + strings.Join(parts, ",")
	default:
		loc += ":" + lineRange(r.Lines)
	}
	if withRoot {
		return h.Root + "/" + loc
	}
	return loc
}

func lineRange(l [2]int) string {
	if l[0] == l[1] {
		return fmt.Sprint(l[0])
	}
	return fmt.Sprintf("%d-%d", l[0], l[1])
}

// fragmentEscaper keeps an attachment's name from breaking the fragment.
var fragmentEscaper = strings.NewReplacer("%", "%25", "&", "%26", "#", "%23")

// Markdown is a ready prompt block of the answer: a line saying what it
// is, then each passage under its citation number and location, fenced.
func Markdown(a *SearchAnswer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Search results for %q (autorag; cite a passage by its location):\n", a.Query)
	if len(a.Results) == 0 {
		b.WriteString("\nNo results.\n")
	}
	multi := len(a.Roots) > 1
	for n, h := range a.Results {
		head, tail := passageFrame(n+1, h, multi)
		b.WriteString(head)
		b.WriteString(strings.TrimRight(h.Text, "\n"))
		b.WriteString(tail)
	}
	if a.LeftOut > 0 {
		b.WriteString(leftOutNote(a.LeftOut, a.MaxTokens))
	}
	return b.String()
}

// leftOutNote is what Markdown ends with when results did not fit.
func leftOutNote(n, maxTokens int) string {
	return fmt.Sprintf("\n(%d more results did not fit the %d-token budget.)\n", n, maxTokens)
}

// passageFrame is what Markdown writes before and after a passage's text:
// its number, citation and section (without Markdown attribute lists such
// as "{ #anchor }"), up to alsoInShown of the other places it is found,
// and the fence (longer than any run of backticks in the passage), named
// by the file's extension when that is a language's name.
func passageFrame(n int, h Hit, withRoot bool) (head, tail string) {
	title := ""
	if sec := strings.TrimSpace(attrList.ReplaceAllString(h.Section, "")); sec != "" {
		title = " — " + sec
	}
	fence := strings.Repeat("`", max(3, longestRun(h.Text, '`')+1))
	head = fmt.Sprintf("\n[%d] %s%s\n%s%s%s\n", n, Citation(h, withRoot), title, alsoIn(h, withRoot), fence, fenceLang(h.Path))
	return head, "\n" + fence + "\n"
}

// attrList matches a Markdown attribute list ("{ #anchor }", "{#id .class}")
// in a heading: a link target for a site generator, noise in a prompt.
var attrList = regexp.MustCompile(`\s*\{\s*#[^{}]*\}`)

// alsoInShown bounds the other places a passage's frame names; the rest
// are counted.
const alsoInShown = 2

// alsoIn is the "Also in:" line of h's frame ("" when it has none).
func alsoIn(h Hit, withRoot bool) string {
	if len(h.AlsoIn) == 0 {
		return ""
	}
	var locs []string
	for _, l := range h.AlsoIn[:min(len(h.AlsoIn), alsoInShown)] {
		locs = append(locs, Citation(Hit{Root: h.Root, Result: engine.Result{Path: l.Path, Attachment: l.Attachment, Lines: l.Lines}}, withRoot))
	}
	if more := len(h.AlsoIn) - alsoInShown; more > 0 {
		locs = append(locs, fmt.Sprintf("%d more", more))
	}
	return "Also in: " + strings.Join(locs, ", ") + "\n"
}

// fenceLang is the info string of p's fence: its extension when that
// reads as a language's name ("go", "md", "c++"), else none (a man page's
// "1", a backup's "~").
func fenceLang(p string) string {
	ext := strings.TrimPrefix(path.Ext(p), ".")
	if !langName.MatchString(ext) {
		return ""
	}
	return ext
}

var langName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_+-]*$`)

// AnswerOf is the workspace answer of one root's envelope (the CLI's
// query), its results named root.
func AnswerOf(root string, q *envelope.Query) *SearchAnswer {
	return &SearchAnswer{OK: q.OK, Outcome: q.Outcome, Query: q.Query, Mode: q.Mode, K: q.K, Fingerprint: q.Fingerprint,
		Generation: q.Generation, Cached: q.Cached, TookMS: q.TookMS, Results: HitsOf(root, q.Results), Explain: q.Explain,
		Stale: q.Stale, StaleCheckedAt: q.StaleCheckedAt, Reranked: q.Reranked, RerankError: q.RerankError,
		Roots: []RootAnswer{rootAnswer(root, q)}}
}

// Fit cuts a's results to maxTokens as Markdown prints them (see FitHits).
func (a *SearchAnswer) Fit(maxTokens int) { fitBudget(a, a.Query, maxTokens) }

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// HitsOf names a root's results by root, for FitHits and Markdown.
func HitsOf(root string, results []engine.Result) []Hit {
	out := make([]Hit, len(results))
	for i, r := range results {
		out[i] = Hit{Root: root, Result: r}
	}
	return out
}

// FitHits returns the hits (best first) that fit in maxTokens as Markdown
// prints them (see package budget: long passages trimmed to their best
// lines), the tokens they take and how many were left out.
func FitHits(hits []Hit, query string, maxTokens int, withRoot bool, s budget.Strategy) ([]Hit, int, int) {
	ps := make([]budget.Passage, len(hits))
	for i, h := range hits {
		head, tail := passageFrame(i+1, h, withRoot)
		first := h.Lines[0]
		if h.Page > 0 || h.Attachment != "" {
			first = 0
		}
		ps[i] = budget.Passage{Text: h.Text, First: first, Head: head + tail}
	}
	// The note on what did not fit is paid for up front, when the budget
	// can spare it.
	note := budget.Count(leftOutNote(len(hits), maxTokens))
	if note*4 > maxTokens {
		note = 0
	}
	shown, used, err := budget.Fit(ps, budget.Options{MaxTokens: maxTokens - note, Query: query, Strategy: s})
	if err != nil {
		return nil, 0, len(hits)
	}
	if len(shown) < len(hits) {
		used += note
	}
	out := make([]Hit, 0, len(shown))
	for _, x := range shown {
		h := hits[x.Index]
		h.Text, h.Trimmed = x.Text, x.Trimmed
		if x.Trimmed {
			h.ShownLines = x.Lines
		}
		out = append(out, h)
	}
	return out, used, len(hits) - len(out)
}

// fitBudget cuts a's results to its budget.
func fitBudget(a *SearchAnswer, query string, maxTokens int) {
	a.Results, a.Tokens, a.LeftOut = FitHits(a.Results, query, maxTokens, len(a.Roots) > 1, budget.Share)
	a.MaxTokens, a.Encoding = maxTokens, budget.Encoding
}
