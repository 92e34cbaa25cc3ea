// Package embed defines the embedder contract. Implementations live in
// sub-packages: static (the built-in offline embedder, potion-base-8M, the
// default; provider "local"), openai (any OpenAI-compatible embeddings API)
// and transformer (BERT-family encoders run in process).
package embed

import (
	"context"
	"fmt"
	"time"
)

// Identity names an embedder's vector space. It goes into the index
// fingerprint and into every embedding-cache key: switching provider, model
// or dimensions re-embeds on the next refresh (through the cache).
type Identity struct {
	Provider string // "local", "openai"
	Model    string // e.g. "potion-base-8M@bf8b0566-q8-v4", "text-embedding-3-small"
	Dims     int
	// Traits are what the model catalog says of the model (a transformer
	// model's; zero for the others). They are not in String: the model
	// and its weights already name them.
	Traits Traits
}

// Traits are the facts about a model that its default fusion depends on,
// as the model catalog records them: rank.ModelTraits, which the engine
// converts them to (the fields must stay the same).
type Traits struct {
	// Prefixed: queries or passages get a prefix or instruction, so a
	// query is embedded unlike a passage.
	Prefixed bool
	// Multilingual: trained on many languages and scripts, a query in any
	// of them is no weaker for it.
	Multilingual bool
	// Foreign is the dense weight factor measured for a query in another
	// language than English of an English model; 0: the default factor.
	Foreign float64
	// Code is the dense weight factor measured for code chunks under a
	// question in words; 0: the default factor.
	Code float64
}

// String is the canonical form, e.g. "local/potion-base-8M@bf8b0566-q8-v4/256".
func (id Identity) String() string {
	return fmt.Sprintf("%s/%s/%d", id.Provider, id.Model, id.Dims)
}

// Embedder turns texts into vectors.
type Embedder interface {
	Identity() Identity
	// Embed returns one L2-normalized vector of Identity().Dims per text,
	// in order. It fails as a whole: on error no vector is returned.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// QueryEmbedder is an embedder that embeds a query unlike a document (a
// query prefix or instruction, as e5 and bge models want). The engine
// embeds queries through EmbedQuery when an embedder has it, through Embed
// otherwise.
type QueryEmbedder interface {
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
}

// Observer hears what an embedder that calls a remote service does, for
// progress lines and counters. Embed finds it in its context (WithObserver);
// methods may be called from several goroutines at once.
type Observer interface {
	// Requests reports the progress of one Embed call: the requests in
	// flight, and the inputs embedded so far of all its inputs (an input is
	// a text, or a piece of a text the embedder split).
	Requests(inFlight, done, total int)
	// Retrying reports a failed request waiting before its next attempt.
	Retrying(wait time.Duration, why string)
	// Split reports n inputs over the per-input token budget, each
	// embedded in pieces whose vectors were averaged.
	Split(n int)
}

type observerKey struct{}

// WithObserver returns ctx carrying o.
func WithObserver(ctx context.Context, o Observer) context.Context {
	return context.WithValue(ctx, observerKey{}, o)
}

// ObserverFrom returns the Observer ctx carries, or one that ignores
// everything.
func ObserverFrom(ctx context.Context) Observer {
	if o, ok := ctx.Value(observerKey{}).(Observer); ok {
		return o
	}
	return ignore{}
}

type ignore struct{}

func (ignore) Requests(int, int, int)         {}
func (ignore) Retrying(time.Duration, string) {}
func (ignore) Split(int)                      {}

// Coverer is an embedder that can tell how much of a text it knows: the
// share of its words with a learned vector (the built-in embedder gives
// words it only spells out a spelling-based fallback). Hybrid fusion
// raises the similarity floor for a query it knows no word of.
type Coverer interface {
	Coverage(text string) float64
}
