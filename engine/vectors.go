package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embedding"
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
// adjusts it: adaptive fusion (α = 0.7, the dense weight quartered for
// queries not in English, vector-only hits below 0.15 dropped, 0.25 for a
// query the embedder knows no word of, and the query vector turned by
// BM25's best 5 chunks: rank/feedback.go) was chosen on the dev splits
// (NFCorpus dev, SciFact train, CoSQA dev, XQuAD; docs/QUALITY.md, `make
// eval`): α 0.7 led 0.5-0.8, and code chunks keep the full dense weight
// (CoSQA 0.3832 at a tenth, 0.4204 at full, BM25 0.3694). An API embedder
// is strong enough for reciprocal rank fusion at equal weights.
func DefaultFusion(id embed.Identity) Fusion {
	switch id.Provider {
	case "local":
		return DefaultAdaptive
	case "transformer":
		// Chosen on the dev sets with all-minilm-l6-v2-q (docs/QUALITY.md):
		// the only choice at or above BM25 on NFCorpus dev and both XQuAD
		// sets; RRF 1:1 lost 0.08-0.13 on XQuAD.
		return DefaultConvex
	}
	return DefaultRRF
}

// The default settings of each fusion method (see DefaultFusion).
var (
	DefaultConvex   = Fusion{Method: FusionConvex, Alpha: 0.8}
	DefaultAdaptive = Fusion{Method: FusionAdaptive, Alpha: 0.7, Code: 1, Foreign: 0.25, Floor: 0.15, FloorUnknown: 0.25, FloorRatio: 0.5, Feedback: 5}
	DefaultRRF      = Fusion{Method: FusionRRF, K: 60, WBM25: 1, WDense: 1}
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
// convex and adaptive fusion and the dense weight of RRF. With neither set
// it is the zero Fusion: queries then use the embedder's default (fusion).
func FusionFrom(method string, alpha *float64, emb embed.Embedder) (Fusion, error) {
	if method == "" && alpha == nil {
		return Fusion{}, nil
	}
	var f Fusion
	if emb != nil {
		f = DefaultFusion(emb.Identity())
	}
	switch method {
	case FusionConvex:
		f = DefaultConvex
	case FusionRRF:
		f = DefaultRRF
	case FusionAdaptive:
		f = DefaultAdaptive
	case "":
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
