package agentapi

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/autorag/autorag/budget"
	"github.com/autorag/autorag/engine/analyze"
)

// SnippetChars bounds the text of a snippet (WorkspaceSearch.Snippets):
// about 120 tokens, the three best lines the CLI's text format shows.
const SnippetChars = 480

// snippetCache remembers the snippets of the passages a workspace sent,
// per query: a repeated search (answered from the service's cache in
// microseconds) would otherwise analyze every passage again, which costs
// more than the search.
type snippetCache struct {
	mu sync.Mutex
	m  map[snippetKey]snipped
}

// snippetKey names a passage of a generation cut for a query.
type snippetKey struct {
	root, generation, query, path, attachment string
	chunk, page                               int
}

type snipped struct {
	text    string
	shown   [][2]int
	trimmed bool
}

// snippetCacheEntries bounds the cache (about 500 answers of ten; each
// entry holds at most SnippetChars of text); it starts over when full.
const snippetCacheEntries = 5000

// apply cuts each of a's results to its snippet for query.
func (c *snippetCache) apply(a *SearchAnswer, query string) {
	gens := map[string]string{}
	for _, ra := range a.Roots {
		gens[ra.Root] = ra.Generation
	}
	var terms map[string]bool
	for i := range a.Results {
		h := &a.Results[i]
		k := snippetKey{root: h.Root, generation: gens[h.Root], query: query, path: h.Path, attachment: h.Attachment, chunk: h.Chunk, page: h.Page}
		s, ok := c.get(k)
		if !ok {
			if terms == nil {
				terms = termSet(query)
			}
			first := h.Lines[0]
			if h.Page > 0 || h.Attachment != "" {
				first = 0
			}
			s.text, s.shown, s.trimmed = snippet(h.Text, first, terms, SnippetChars)
			c.put(k, s)
		}
		if s.trimmed {
			h.Text, h.Trimmed, h.ShownLines = s.text, true, s.shown
		}
	}
}

func (c *snippetCache) get(k snippetKey) (snipped, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[k]
	return s, ok
}

func (c *snippetCache) put(k snippetKey, s snipped) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= snippetCacheEntries {
		c.m = map[snippetKey]snipped{}
	}
	if !s.trimmed {
		s.text = "" // the passage is sent whole: nothing to keep
	}
	c.m[k] = s
}

func termSet(query string) map[string]bool {
	terms := map[string]bool{}
	for _, t := range analyze.Terms(query) {
		terms[t] = true
	}
	return terms
}

// snippet keeps the lines of text that hold the most distinct query
// terms, then their neighbours, while they fit in limit bytes; when no
// line matches, the opening lines. Each run of lines left out becomes a
// marker line naming them, as with max_tokens ("[… lines 4-9 omitted …]").
// first is the line number of text's first line (0: no line numbers, a
// PDF page). Text within limit is returned whole (trimmed false); a line
// longer than limit on its own is cut at a word boundary and ends in "…".
func snippet(text string, first int, terms map[string]bool, limit int) (out string, shown [][2]int, trimmed bool) {
	if len(text) <= limit {
		return text, nil, false
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	score, at := lineScores(text, lines, terms)
	order := make([]int, 0, len(lines))
	for i, s := range score {
		if s > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	if len(order) == 0 {
		for i := range lines {
			if strings.TrimSpace(lines[i]) != "" {
				order = append(order, i)
				break
			}
		}
	}
	chosen := make([]bool, len(lines))
	used := 0
	take := func(i int) { // a blank line is shown only between two chosen ones (budget.Render)
		if i >= 0 && i < len(lines) && !chosen[i] && strings.TrimSpace(lines[i]) != "" && used+len(lines[i])+1 <= limit {
			chosen[i], used = true, used+len(lines[i])+1
		}
	}
	for _, i := range order {
		take(i)
	}
	for _, i := range order {
		if chosen[i] {
			take(i + 1)
			take(i - 1)
		}
	}
	if !slices.Contains(chosen, true) && len(order) > 0 { // the best line alone is too long
		i := order[0]
		chosen[i] = true
		lines = slices.Clone(lines)
		lines[i] = clipLine(lines[i], max(at[i], 0), limit)
	}
	c := budget.Render(lines, chosen, first)
	return c.Text, c.Lines, true // a clipped line is trimmed too, with no marker
}

// lineScores counts the distinct query terms of each line, and says where
// in the line the first one starts (-1: none). It analyzes text once: a
// token never spans a line break, and the analyzer treats each token
// alone.
func lineScores(text string, lines []string, terms map[string]bool) (score, at []int) {
	score, at = make([]int, len(lines)), make([]int, len(lines))
	for i := range at {
		at[i] = -1
	}
	if len(terms) == 0 {
		return score, at
	}
	starts := make([]int, len(lines))
	off := 0
	for i, l := range lines {
		starts[i] = off
		off += len(l) + 1
	}
	seen := make([]map[string]bool, len(lines))
	for _, t := range analyze.Analyzer().Analyze([]byte(text)) {
		term := string(t.Term)
		if !terms[term] {
			continue
		}
		i := sort.SearchInts(starts, t.Start+1) - 1
		if i < 0 || i >= len(lines) {
			continue
		}
		if seen[i] == nil {
			seen[i], at[i] = map[string]bool{}, t.Start-starts[i]
		}
		if !seen[i][term] {
			seen[i][term] = true
			score[i]++
		}
	}
	return score, at
}

// clipLine cuts l to about limit bytes around byte offset at (a match),
// at spaces where it can, marking each cut end with "…".
func clipLine(l string, at, limit int) string {
	from := max(0, at-limit/4)
	if from > 0 {
		if sp := strings.LastIndexByte(l[:from], ' '); sp >= 0 && from-sp < limit/4 {
			from = sp + 1
		}
		for from < len(l) && (l[from]&0xC0) == 0x80 { // not inside a rune
			from++
		}
	}
	to := min(len(l), from+limit-2*len("…"))
	if to < len(l) {
		for to > from && (l[to]&0xC0) == 0x80 {
			to--
		}
		if sp := strings.LastIndexByte(l[from:to], ' '); sp > (to-from)/2 {
			to = from + sp
		}
	}
	out := l[from:to]
	if from > 0 {
		out = "…" + out
	}
	if to < len(l) {
		out += "…"
	}
	return out
}
