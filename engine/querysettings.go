package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embedding"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/recorded"
	"github.com/autorag/autorag/engine/rerank"
	"github.com/autorag/autorag/fingerprint"
)

// ErrUsage marks errors of what the caller asked for (a mode the index
// cannot serve, a mismatched embedder): the CLI exits 2 for them.
var ErrUsage = backend.ErrUsage

func usagef(format string, args ...any) error { return backend.Usagef(format, args...) }

// embedderID is the fingerprinted name of the configured embedder.
func (s Settings) embedderID() string {
	if s.Embedder == nil {
		return "none"
	}
	return s.embedIdentity().String()
}

// DefaultFusion is the fusion measured best for an embedder. With the
// built-in static embedder (potion-base-8M) BM25 leads and the dense list
// adjusts it: adaptive fusion (α = 0.7, no dense weight for queries in
// another language or alphabet, where a quarter put XQuAD hi and vi below
// BM25, vector-only hits below 0.15 dropped, 0.25 for a
// query the embedder knows no word of, and the query vector turned by
// BM25's best 5 chunks: rank/feedback.go) was chosen on the dev splits
// (NFCorpus dev, SciFact train, CoSQA dev, XQuAD; docs/QUALITY.md, `make
// eval`): α 0.7 led 0.5-0.8, and code chunks keep the full dense weight
// (CoSQA 0.3832 at a tenth, 0.4204 at full, BM25 0.3694). A transformer
// model's dense list is as strong as BM25 (rank.TransformerFusion). An API
// embedder is strong enough for reciprocal rank fusion at equal weights.
func DefaultFusion(id embed.Identity) Fusion {
	switch id.Provider {
	case "local":
		return DefaultAdaptive
	case "transformer":
		return rank.TransformerFusion(rank.ModelTraits(id.Traits))
	}
	return DefaultRRF
}

// The default settings of each fusion method (see DefaultFusion).
var (
	DefaultConvex   = Fusion{Method: FusionConvex, Alpha: 0.8}
	DefaultAdaptive = Fusion{Method: FusionAdaptive, Alpha: 0.7, Code: 1, Foreign: 0, Floor: 0.15, FloorUnknown: 0.25, FloorRatio: 0.5, Feedback: 5, FileDense: true}
	DefaultRRF      = Fusion{Method: FusionRRF, K: 60, WBM25: 1, WDense: 1}
	// DefaultTransformer is the transformer models' (rank.TransformerFusion).
	DefaultTransformer = rank.DefaultTransformer
)

// fusion is the fusion hybrid queries use: the configured one, else the
// embedder's default.
func (e *Engine) fusion() Fusion {
	if e.Settings.Fusion.Method != "" || e.Settings.Embedder == nil {
		return e.Settings.Fusion
	}
	return DefaultFusion(e.Settings.Embedder.Identity())
}

// resolveMode is the mode a query with mode runs in on the generation sc
// names ("" resolves to the default); it checks that the index can serve it
// with the configured embedder.
func (e *Engine) resolveMode(sc *fingerprint.Sidecar, mode string) (string, error) {
	e = e.reading(sc)
	e.assumeRecordedDims(sc)
	built := sc.Settings["embedder"]
	hasVectors := built != "" && built != "none"
	switch mode {
	case "":
		if !hasVectors {
			return ModeBM25, nil
		}
		mode = ModeHybrid
	case ModeBM25:
		return mode, nil
	case ModeVector, ModeHybrid:
		if !hasVectors {
			return "", usagef("--mode %s: the index has no vectors (it was built with AUTORAG_EMBEDDER=none)", mode)
		}
	default:
		return "", usagef("unknown --mode %q (want hybrid, bm25 or vector)", mode)
	}
	if cur := e.Settings.embedderID(); cur != built {
		// Every embedder's identity carries the index version
		// (embedIdentity): across a version only a refresh helps.
		if sc.SemanticsVersion != IndexSemanticsVersion {
			return "", usagef("the index was built by another version of autorag (index semantics %d, this autorag has %d): run `autorag refresh` to rebuild it", sc.SemanticsVersion, IndexSemanticsVersion)
		}
		if strings.HasPrefix(built, "local/") && strings.HasPrefix(cur, "local/") {
			return "", usagef("the index was built by another version of the built-in embedder (%s; this autorag has %s): run `autorag refresh` to rebuild it", built, cur)
		}
		return "", usagef("the index was built with embedder %s but %s is configured: configure the embedder it was built with (`autorag config` shows the settings in effect), or run `autorag refresh` to re-embed with this one", built, cur)
	}
	return mode, nil
}

// queryVector embeds the query text (embedding.Query: a remote embedder's
// query vectors are cached on disk).
func (e *Engine) queryVector(ctx context.Context, text string) ([]float32, error) {
	return embedding.Query(ctx, e.Settings.Embedder, filepath.Join(e.Layout.CacheDir(), "qvec"), text)
}

// FusionFrom is the fusion that the fusion and fusion_alpha settings make
// over the embedder's default: method ("" keeps the default's) picks the
// default of that method; alpha (nil: not set) is the BM25 weight of
// convex and adaptive fusion and the dense weight of RRF (the embedder's
// default method keeps the embedder's settings). With neither set it is
// the zero Fusion: queries then use the embedder's default (fusion).
func FusionFrom(method string, alpha *float64, emb embed.Embedder) (Fusion, error) {
	if method == "" && alpha == nil {
		return Fusion{}, nil
	}
	var f Fusion
	if emb != nil {
		f = DefaultFusion(emb.Identity())
	}
	switch {
	case method == "" || method == f.Method: // the embedder's own of that method
	case method == FusionConvex:
		f = DefaultConvex
	case method == FusionRRF:
		f = DefaultRRF
	case method == FusionAdaptive:
		f = DefaultAdaptive
	default:
		return f, fmt.Errorf("unknown fusion %q: use --fusion adaptive, convex or rrf (or leave it unset for the embedder's default)", method)
	}
	if alpha != nil {
		if f.Method == FusionRRF {
			f.WDense = *alpha
		} else {
			f.Alpha = *alpha
		}
	}
	return f, nil
}

// ResolveOptions returns o as the generation sc names would run it: text
// checked, mode resolved ("" is hybrid or bm25), k and per-file defaulted.
func (e *Engine) ResolveOptions(sc *fingerprint.Sidecar, o QueryOptions) (QueryOptions, error) {
	err := backend.CheckText(o.Text)
	if err == nil {
		o.Mode, err = e.resolveMode(sc, o.Mode)
	}
	if err != nil {
		return o, err
	}
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

// Reranker re-scores a query's best candidates (engine/rerank is the client
// of rerank services). Declared here, where it is used.
type Reranker interface {
	// Name identifies the reranker in the query cache key and --explain.
	Name() string
	// Rerank returns one score per text, in order; higher is better.
	Rerank(ctx context.Context, query string, texts []string) ([]float64, error)
}

// DefaultRerankN is how many of the best results a reranker re-scores.
const DefaultRerankN = 30

// rerankN is the number of candidates the configured reranker takes.
func (s Settings) rerankN() int {
	if s.RerankN > 0 {
		return s.RerankN
	}
	return DefaultRerankN
}

// widen asks the search for the candidates the reranker re-scores.
func (e *Engine) widen(o QueryOptions) QueryOptions {
	if e.Settings.Reranker == nil {
		return o
	}
	k, _ := defaults(o)
	o.K = max(k, e.Settings.rerankN())
	return o
}

// rerank re-orders the best rerankN results of res by the reranker's
// scores (package rerank, Reorder) and keeps the first k of o. A reranker
// that fails (an error, a timeout, not one score per passage) leaves the
// fused order and says so (Reranked false, RerankError); the query fails
// only with Settings.RerankRequired, or when ctx was cancelled.
func (e *Engine) rerank(ctx context.Context, o QueryOptions, res *QueryResult) error {
	rr := e.Settings.Reranker
	if rr == nil {
		return nil
	}
	k, _ := defaults(o)
	n := min(e.Settings.rerankN(), len(res.Results))
	err := rerank.Reorder(ctx, rr, o.Text, res.Results[:n], o.Explain)
	res.Results = res.Results[:min(k, len(res.Results))]
	ok := err == nil
	res.Reranked = &ok
	switch {
	case err != nil && (ctx.Err() != nil || e.Settings.RerankRequired):
		return fmt.Errorf("rerank: %w", err)
	case err != nil:
		res.RerankError = "rerank: " + err.Error()
		if o.Explain {
			res.Explain += "; not reranked, fused order kept: " + res.RerankError
		}
	case o.Explain && n > 0:
		res.Explain += fmt.Sprintf("; reranked the best %d with %s", n, rr.Name())
	}
	return nil
}

// cloneResult copies r deeply enough that no caller can reach the cached
// value: the result slice and the score pointers (two backing arrays).
func cloneResult(r *QueryResult) *QueryResult {
	out := *r
	out.Results = make([]Result, len(r.Results))
	copy(out.Results, r.Results)
	floats := make([]float64, 0, 2*len(r.Results))
	ints := make([]int, 0, 2*len(r.Results))
	for i := range out.Results {
		// at most two of each per result: the appends never reallocate
		sc := &out.Results[i].Scores
		for _, p := range []**float64{&sc.BM25, &sc.Vector} {
			if *p != nil {
				floats = append(floats, **p)
				*p = &floats[len(floats)-1]
			}
		}
		for _, p := range []**int{&sc.BM25Rank, &sc.VectorRank} {
			if *p != nil {
				ints = append(ints, **p)
				*p = &ints[len(ints)-1]
			}
		}
	}
	return &out
}

// resultSize estimates the memory a cached result holds.
func resultSize(r *QueryResult) int64 {
	n := int64(256 + len(r.Fingerprint) + len(r.Generation) + len(r.Mode) + len(r.Fusion))
	for _, x := range r.Results {
		n += int64(200 + len(x.Path) + len(x.Section) + len(x.Title) + len(x.Explain) + len(x.Text) + 64*len(x.Defs))
	}
	return n
}

// EmbedderInUse is the identity of the embedder that answers queries on the committed index sc, and
// whether a chosen one differs (a refresh would switch to it); a provider's size not yet learned is
// the recorded one (the same model is no switch). EmbedderID is the chosen or default one's.
func (e *Engine) EmbedderInUse(sc *fingerprint.Sidecar) (inUse string, differs bool) {
	e.assumeRecordedDims(sc)
	differs = e.Settings.EmbedderChosen && sc != nil && !recorded.SameEmbedder(recorded.Embedder(sc), e.Settings.embedderID())
	return e.reading(sc).Settings.embedderID(), differs
}

func (e *Engine) EmbedderID() string { return e.Settings.embedderID() } // the configured one's, recorded form
