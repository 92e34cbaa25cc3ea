package agentapi

import (
	"cmp"
	"context"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/upgrade"
)

// WorkspaceSearch is one search of a workspace: the options of `autorag
// query` plus which root and how many tokens of text.
type WorkspaceSearch struct {
	SearchRequest
	Root      string `json:"root,omitempty" jsonschema:"search only this root: its name as status lists it, or an absolute path inside it; all for every root, merged by score (the default unless the server was started with --default-root)"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"fit the passages' text into about this many tokens (cl100k count, an estimate for other models): the best results first, whole when they fit, else cut to one run of lines around their best-matching ones (default: whole passages)"`
	// Snippets cuts each passage to its best-matching lines, at most
	// SnippetChars bytes (trimmed and shown_lines say so), unless
	// MaxTokens is given: the budget then decides. Transports choose
	// the default (MCP: snippets, with a full_text argument; HTTP: whole).
	Snippets bool `json:"-"`
}

// Hit is one result of a workspace search: the root's result, named by
// root, with its score made comparable across roots.
type Hit struct {
	Root string `json:"root,omitempty"` // always set by a server
	engine.Result
	// RootScore is the score the root gave, when the merge rescaled it
	// (several roots answered; see Scale in RootAnswer).
	RootScore *float64 `json:"root_score,omitempty"`
	// Trimmed says that Text holds only some of the passage's lines (with
	// max_tokens); ShownLines are those shown.
	Trimmed    bool     `json:"trimmed,omitempty"`
	ShownLines [][2]int `json:"shown_lines,omitempty"`
}

// RootAnswer is what one root said to a search.
type RootAnswer struct {
	Root           string     `json:"root"`
	Path           string     `json:"path"`
	OK             bool       `json:"ok"`
	Mode           string     `json:"mode,omitempty"`
	Fingerprint    string     `json:"fingerprint,omitempty"`
	Generation     string     `json:"generation,omitempty"`
	Cached         bool       `json:"cached,omitempty"`
	Results        int        `json:"results"`
	Scale          float64    `json:"scale,omitempty"`
	Reranked       *bool      `json:"reranked,omitempty"`
	RerankError    string     `json:"rerank_error,omitempty"`
	Stale          *bool      `json:"stale,omitempty"`
	StaleCheckedAt *time.Time `json:"stale_checked_at,omitempty"`
	// Embedder answered the root (the identity its generation records);
	// Upgrade is its staged embedding on the way, when one is due.
	Embedder string              `json:"embedder,omitempty"`
	Upgrade  *upgrade.Progress   `json:"upgrade,omitempty"`
	Error    *envelope.ErrorBody `json:"error,omitempty"`
}

// rootAnswer is what root's own answer q says of it: every field but the
// path, cached and stale, which a merge adds (AnswerOf leaves them to
// the envelope).
func rootAnswer(root string, q *envelope.Query) RootAnswer {
	return RootAnswer{Root: root, OK: true, Mode: q.Mode, Fingerprint: q.Fingerprint, Generation: q.Generation,
		Results: len(q.Results), Reranked: q.Reranked, RerankError: q.RerankError, Embedder: q.Embedder, Upgrade: q.Upgrade}
}

// SearchAnswer is a workspace search's envelope: `autorag query --json`'s
// fields (fingerprint and generation when one root answered), the merged
// results, and what each root said.
type SearchAnswer struct {
	OK          bool    `json:"ok"`
	Outcome     string  `json:"outcome"`
	Query       string  `json:"query"`
	Mode        string  `json:"mode"`
	K           int     `json:"k"`
	Fingerprint string  `json:"fingerprint,omitempty"`
	Generation  string  `json:"generation,omitempty"`
	Cached      bool    `json:"cached"`
	TookMS      float64 `json:"took_ms"`
	Results     []Hit   `json:"results"`
	Explain     string  `json:"explain,omitempty"`
	// Reranked is false when the reranker failed for any root (that root's
	// passages are in its fused order; RerankError says why, and each
	// root's own answer in Roots).
	Reranked       *bool        `json:"reranked,omitempty"`
	RerankError    string       `json:"rerank_error,omitempty"`
	Stale          *bool        `json:"stale,omitempty"`
	StaleCheckedAt *time.Time   `json:"stale_checked_at,omitempty"`
	Roots          []RootAnswer `json:"roots"`
	// With max_tokens: the budget, the tokens the results' text and
	// citations take (an estimate, see Encoding) and how many results did
	// not fit.
	MaxTokens int    `json:"max_tokens,omitempty"`
	Tokens    int    `json:"tokens,omitempty"`
	LeftOut   int    `json:"left_out,omitempty"`
	Encoding  string `json:"token_encoding,omitempty"`
}

// Search answers r from every root it names at once, merged (see
// doc.go, "Workspaces"). A root that fails is reported in Roots and left
// out; only when every root failed is the first failure returned.
func (w *Workspace) Search(ctx context.Context, r WorkspaceSearch) (*SearchAnswer, error) {
	start := time.Now()
	if r.MaxTokens < 0 {
		return nil, usagef("max_tokens must be positive, got %d", r.MaxTokens)
	}
	ms, err := w.pick(r.Root)
	if err != nil {
		return nil, err
	}
	if _, err := r.options(); err != nil {
		return nil, err
	}
	answers := make([]*envelope.Query, len(ms))
	errs := make([]error, len(ms))
	w.each(ms, func(i int, m *member) {
		m.use(func(a *API) { answers[i], errs[i] = a.Search(ctx, r.SearchRequest) })
	})
	out, err := merge(r, ms, answers, errs, cmp.Or(w.o.Merge, MergeEvidence))
	if err != nil {
		return nil, err
	}
	switch {
	case r.MaxTokens > 0:
		fitBudget(out, r.Query, r.MaxTokens)
	case r.Snippets:
		w.snips.apply(out, r.Query)
	}
	out.TookMS = ms64(time.Since(start))
	return out, nil
}

func ms64(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
