package envelope

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/lock"
	"github.com/autorag/autorag/upgrade"
)

// Query is the answer to a search.
type Query struct {
	OK          bool            `json:"ok"`
	Outcome     string          `json:"outcome"`
	Query       string          `json:"query"`
	Mode        string          `json:"mode"`
	Fusion      string          `json:"fusion,omitempty"`
	K           int             `json:"k"`
	Fingerprint string          `json:"fingerprint"`
	Generation  string          `json:"generation"`
	Cached      bool            `json:"cached"`
	TookMS      float64         `json:"took_ms"`
	Results     []engine.Result `json:"results"`
	// Explain (--explain) says what the query did as a whole, e.g. how many
	// vector-only results the floor dropped.
	Explain string `json:"explain,omitempty"`
	// Hint says why a filtered query found nothing, when it knows, or
	// that a hybrid query matched no word of the index.
	Hint string `json:"hint,omitempty"`
	// Reranked says, when a reranker is configured, whether it re-scored
	// the results; when it failed, RerankError says why and the results
	// are in the fused order.
	Reranked    *bool  `json:"reranked,omitempty"`
	RerankError string `json:"rerank_error,omitempty"`
	// Stale is set by the servers (autorag mcp, autorag serve) only: true
	// when the sources changed since the committed index, as of
	// StaleCheckedAt.
	Stale          *bool      `json:"stale,omitempty"`
	StaleCheckedAt *time.Time `json:"stale_checked_at,omitempty"`
	// Embedder is the embedder identity of the generation that answered
	// (its query vector was computed with it); Upgrade, when set, is the
	// staged embedding still due (docs/EMBEDDERS.md). The CLI fills both
	// after the query cache, which never stores them.
	Embedder string            `json:"embedder,omitempty"`
	Upgrade  *upgrade.Progress `json:"upgrade,omitempty"`
}

// NewQuery is the envelope of res, the answer to text with k results.
func NewQuery(text string, k int, res *engine.QueryResult) *Query {
	results := res.Results
	if results == nil {
		results = []engine.Result{}
	}
	return &Query{OK: true, Outcome: "ok", Query: text, Mode: res.Mode, Fusion: res.Fusion, K: k,
		Fingerprint: res.Fingerprint, Generation: res.Generation, Results: results, Explain: res.Explain,
		Hint: res.Hint, Reranked: res.Reranked, RerankError: res.RerankError}
}

// Refresh is what a refresh did. A busy refresh has only ok (false),
// outcome ("busy"), holder and error, like the error envelope.
type Refresh struct {
	OK      bool   `json:"ok"`
	Outcome string `json:"outcome"`
	*engine.RefreshResult
	// Embedder is the embedder identity the committed index records: the
	// one its queries use. Upgrade, when set, is the staged embedding
	// still due (refresh --no-wait; docs/EMBEDDERS.md); Staged, for a
	// staged refresh that waited, is its first commit.
	Embedder string            `json:"embedder,omitempty"`
	Upgrade  *upgrade.Progress `json:"upgrade,omitempty"`
	Staged   *Staged           `json:"staged,omitempty"`
	Holder   *lock.Holder      `json:"holder,omitempty"`
	Error    *ErrorBody        `json:"error,omitempty"`
}

// Staged is the first commit of a staged refresh: searchable from then.
type Staged struct {
	Generation string  `json:"generation"`
	TookMS     float64 `json:"took_ms"`
}

// NewRefresh is the envelope of a finished refresh.
func NewRefresh(res *engine.RefreshResult) *Refresh {
	return &Refresh{OK: true, Outcome: res.Outcome, RefreshResult: res}
}

// Busy is the refresh envelope of a refresh refused because another
// process holds the lock.
func Busy(err error) *Refresh {
	e := NewError(err)
	return &Refresh{Outcome: e.Outcome, Holder: e.Holder, Error: &e.Error}
}

// Status is the committed state of a root.
type Status struct {
	OK      bool   `json:"ok"`
	Outcome string `json:"outcome"`
	*engine.Status
	// Upgrade, when set, is the staged embedding due (docs/EMBEDDERS.md),
	// its done count read from the embedding cache.
	Upgrade *upgrade.Progress `json:"upgrade,omitempty"`
}

// NewStatus is the envelope of st.
func NewStatus(st *engine.Status) *Status { return &Status{OK: true, Outcome: "ok", Status: st} }

// Error is the envelope of a failure; outcome is "busy" (with the holder)
// when the refresh lock was held, else "error".
type Error struct {
	OK      bool         `json:"ok"`
	Outcome string       `json:"outcome"`
	Holder  *lock.Holder `json:"holder,omitempty"`
	Error   ErrorBody    `json:"error"`
}

// ErrorBody says what failed.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"` // what to do next (the CLI's)
}

// NewError is the envelope of err, with the code Code gives it.
func NewError(err error) *Error { return NewErrorCode(err, Code(err)) }

// NewErrorCode is the envelope of err with the given code.
func NewErrorCode(err error, code string) *Error {
	env := &Error{Outcome: "error", Error: ErrorBody{Code: code, Message: err.Error()}}
	var be *lock.BusyError
	if errors.As(err, &be) {
		env.Outcome, env.Holder = "busy", be.Holder
	}
	return env
}

// Error codes (DESIGN.md); the CLI maps each to its exit code.
const (
	CodeBusy        = "busy"
	CodeInterrupted = "interrupted"
	CodeUsage       = "usage"
	CodeNoIndex     = "no_index"
	CodeLockPath    = "lock_path"
	CodeFailed      = "failed"
	CodeDamaged     = "damaged" // the committed index is damaged; a refresh rebuilds it
)

// Code names the class of err. Errors of the caller's request wrap
// engine.ErrUsage; the CLI adds its own usage errors (flags, settings).
func Code(err error) string {
	switch {
	case errors.Is(err, lock.ErrBusy):
		return CodeBusy
	case errors.Is(err, context.Canceled):
		return CodeInterrupted
	case errors.Is(err, engine.ErrUsage):
		return CodeUsage
	case errors.Is(err, engine.ErrNoIndex):
		return CodeNoIndex
	case errors.Is(err, lock.ErrNotRegular):
		return CodeLockPath
	case errors.Is(err, engine.ErrDamaged):
		return CodeDamaged
	default:
		return CodeFailed
	}
}

// Write prints v as one line of JSON, without HTML escaping.
func Write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
