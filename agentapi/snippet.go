package agentapi

import (
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

// snippet cuts text to limit bytes as budget.Trim cuts a passage to
// tokens (budget.CutBytes): one contiguous run of lines around those
// holding the most distinct query terms (the opening lines when none
// does), the next line in part when room is left, a line longer than
// limit on its own cut around its match, each cut end marked "…". One
// run, cited by one line range, rather than the best lines scattered
// with a marker for each gap. first is the line number of text's first
// line (0: no line numbers, a PDF page). Text within limit is returned
// whole (trimmed false).
func snippet(text string, first int, m *budget.Matcher, limit int) (out string, shown [][2]int, trimmed bool) {
	if len(text) <= limit {
		return text, nil, false
	}
	c := budget.CutBytes(text, first, m, limit)
	return c.Text, c.Lines, true
}
