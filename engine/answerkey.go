package engine

import (
	"strconv"
	"strings"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/fingerprint"
)

// ResolveOptions returns o as a query on the generation sc names would run
// it: the mode resolved ("" becomes hybrid or bm25) and k and per-file
// defaulted, so that equal questions look equal.
func (e *Engine) ResolveOptions(sc *fingerprint.Sidecar, o QueryOptions) (QueryOptions, error) {
	mode, err := e.resolveMode(sc, o.Mode)
	if err != nil {
		return o, err
	}
	o.Mode = mode
	o.K, o.PerFile = defaults(o)
	return o, nil
}

// QuerySettings names the query-time settings an answer depends on: BM25
// k1 and b, the effective fusion and the embedder.
func (e *Engine) QuerySettings() string {
	s := e.Settings
	return "k1=" + strconv.FormatFloat(s.K1, 'g', -1, 64) + " b=" + strconv.FormatFloat(s.B, 'g', -1, 64) +
		" | " + e.fusion().String() + " | " + s.embedderID() + rerankKey(s)
}

// rerankKey names the reranker and its depth for the query cache key.
func rerankKey(s Settings) string {
	if s.Reranker == nil {
		return ""
	}
	return " | rerank " + s.Reranker.Name() + " top " + strconv.Itoa(s.rerankN())
}

// AnswerKey is the one key of a cached answer, on disk (the CLI) and in
// memory (Service): everything an answer of the resolved options o on the
// generation sc names depends on, plus the caller's extra parts (its
// namespace, the binary, an epoch). A new query option must be added here.
func AnswerKey(sc *fingerprint.Sidecar, o QueryOptions, settings string, extra ...string) [32]byte {
	parts := append(append(make([]string, 0, len(extra)+10), extra...), sc.Fingerprint, sc.Generation, normalizeQuery(o.Text), o.Mode,
		strconv.Itoa(o.K), strconv.Itoa(o.PerFile), strings.Join(o.pathPatterns(), "\x00"), strconv.FormatBool(o.Explain), strconv.FormatBool(o.NoCollapse), settings, filterKey(o))
	return cache.QueryKey(parts...)
}

// normalizeQuery folds whitespace: "a  b" and " a b " ask the same thing.
func normalizeQuery(q string) string { return strings.Join(strings.Fields(q), " ") }
