package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/fingerprint"
)

// dimsLearner is an embedder whose vector size is learned rather than
// configured: an OpenAI-compatible provider without
// OPENAI_EMBEDDING_DIMENSIONS. The size is part of the embedder's identity,
// hence of the fingerprint, so it must be known before a refresh computes
// the fingerprint and before a query compares identities.
type dimsLearner interface {
	KnowsDims() bool
	// AssumeDims takes the size an index recorded, without a request.
	AssumeDims(n int)
	// ProbeDims learns the size from the provider with one request, even
	// when one is known (unless it is configured).
	ProbeDims(ctx context.Context) error
}

// assumeRecordedDims gives a learning embedder the size the committed
// index recorded for the same provider and model, so that queries and
// status make no request to learn it.
func (e *Engine) assumeRecordedDims(sc *fingerprint.Sidecar) {
	l, ok := e.Settings.Embedder.(dimsLearner)
	if !ok || l.KnowsDims() || sc == nil {
		return
	}
	if n := recordedDims(sc.Settings["embedder"], e.Settings.embedIdentity()); n > 0 {
		l.AssumeDims(n)
	}
}

// learnDims settles a learning embedder's size before a refresh: the size
// already known or the one the committed index recorded (a provider now
// answering with another size then fails the refresh, and nothing is
// committed), or, for a first refresh, another model or a rebuild (also in
// a long-lived process that knew a size), the size of one probe reply.
func (e *Engine) learnDims(ctx context.Context, sc *fingerprint.Sidecar, o RefreshOptions) error {
	l, ok := e.Settings.Embedder.(dimsLearner)
	if !ok {
		return nil
	}
	if !o.Rebuild {
		e.assumeRecordedDims(sc)
		if l.KnowsDims() {
			return nil
		}
	}
	p := progress.Of(o.Progress)
	p.Phase(PhaseProbe, "", -1)
	p.Detail("learning the vector size of the embedding model")
	if err := l.ProbeDims(progress.NewWatch(p).Context(ctx)); err != nil {
		id := e.Settings.Embedder.Identity()
		return fmt.Errorf("learn the vector size of %s model %q: %w", id.Provider, id.Model, err)
	}
	return nil
}

// recordedDims is the size in a recorded embedder identity when it is
// cur's identity but for the size; else 0.
func recordedDims(recorded string, cur embed.Identity) int {
	rest, ok := strings.CutPrefix(recorded, cur.Provider+"/"+cur.Model+"/")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n <= 0 {
		return 0
	}
	cur.Dims = n
	if cur.String() != recorded {
		return 0
	}
	return n
}
