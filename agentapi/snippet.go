package agentapi

import (
	"slices"
	"strings"
	"sync"

	"github.com/autorag/autorag/budget"
)

// SnippetChars bounds the text of a snippet (WorkspaceSearch.Snippets):
// about 120 tokens, the three best lines the CLI's text format shows.
const SnippetChars = 480

// snippetCache remembers the snippets of the passages a workspace sent,
// per query: a repeated search (answered from the service's cache in
// microseconds) would otherwise analyze every passage again, which costs
// more than the search.
type snippetCache struct {
	mu    sync.Mutex
	m     map[snippetKey]snipped
	bytes int // of the entries' strings, about
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

// snippetCacheEntries and snippetCacheBytes bound the cache (about 500
// answers of ten; each entry holds at most SnippetChars of text and a
// query of at most backend.MaxQueryBytes); it starts over when full.
const (
	snippetCacheEntries = 5000
	snippetCacheBytes   = 8 << 20
)

// apply cuts each of a's results to its snippet for query.
func (c *snippetCache) apply(a *SearchAnswer, query string) {
	gens := map[string]string{}
	for _, ra := range a.Roots {
		gens[ra.Root] = ra.Generation
	}
	var m *budget.Matcher
	for i := range a.Results {
		h := &a.Results[i]
		k := snippetKey{root: h.Root, generation: gens[h.Root], query: query, path: h.Path, attachment: h.Attachment, chunk: h.Chunk, page: h.Page}
		s, ok := c.get(k)
		if !ok {
			if m == nil {
				m = budget.NewMatcher(query)
			}
			first := h.Lines[0]
			if h.Page > 0 || h.Attachment != "" {
				first = 0
			}
			s.text, s.shown, s.trimmed = snippet(h.Text, first, m, SnippetChars)
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
	if !s.trimmed {
		s.text = "" // the passage is sent whole: nothing to keep
	}
	size := len(k.root) + len(k.generation) + len(k.query) + len(k.path) + len(k.attachment) + len(s.text) + 16*len(s.shown) + 64
	if c.m == nil || len(c.m) >= snippetCacheEntries || c.bytes+size > snippetCacheBytes {
		c.m, c.bytes = map[snippetKey]snipped{}, 0
	}
	if _, ok := c.m[k]; !ok {
		c.bytes += size
	}
	c.m[k] = s
}

// snippet keeps the lines of text that hold the most distinct query
// terms, then their neighbours, while they fit in limit bytes; when no
// line matches, the opening lines. Each run of lines left out becomes a
// marker line naming them, as with max_tokens ("[… lines 4-9 omitted …]").
// The lines are scored and chosen as budget.Trim chooses them (its
// Matcher, Priority and Choose), with a byte cost instead of tokens and
// blank lines shown only between chosen ones. first is the line number
// of text's first line (0: no line numbers, a PDF page). Text within limit
// is returned whole (trimmed false); a line longer than limit on its own
// is cut at a word boundary and ends in "…".
func snippet(text string, first int, m *budget.Matcher, limit int) (out string, shown [][2]int, trimmed bool) {
	if len(text) <= limit {
		return text, nil, false
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	score, at := m.Scores(lines)
	order := budget.Priority(score)
	if len(order) == 0 {
		for i := range lines {
			if strings.TrimSpace(lines[i]) != "" {
				order = append(order, i)
				break
			}
		}
	}
	cost := func(i int) (int, bool) { // a blank line is shown only between two chosen ones (budget.Render)
		return len(lines[i]) + 1, strings.TrimSpace(lines[i]) != ""
	}
	chosen := budget.Choose(len(lines), order, cost, limit).Chosen
	if !slices.Contains(chosen, true) && len(order) > 0 { // the best line alone is too long
		i := order[0]
		chosen[i] = true
		lines = slices.Clone(lines)
		lines[i] = clipLine(lines[i], max(at[i], 0), limit)
	}
	c := budget.Render(lines, chosen, first)
	return c.Text, c.Lines, true // a clipped line is trimmed too, with no marker
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
