package backend

import (
	"context"
	"strings"

	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/fingerprint"
)

// Storage keeps the searchable states of an index: the local backend as
// bleve and vector files inside each generation directory, the Weaviate
// backend as a pair of collections behind an alias. Everything else stays
// on the client for every backend: the mirror, the manifest, the
// fingerprint and sidecar, each generation's file table, the embedding
// cache and the lock.
//
// A refresh asks the storage whether the committed state can be built on
// (Check), starts the next state from it (Begin), sends it the change set
// part by part, and commits it; the sidecar, written after the commit,
// records it. Garbage is collected after the sidecar names the new state.
type Storage interface {
	// Check reports whether the committed state sc names is intact and
	// can be the base of the next one.
	Check(ctx context.Context, sc *fingerprint.Sidecar) error
	// Open opens the committed state sc names for reading. It does not
	// contact a remote backend: a query does, when it runs.
	Open(sc *fingerprint.Sidecar) (State, error)
	// Begin starts the state of generation gen from the state of
	// generation base, or from nothing when base is "".
	Begin(ctx context.Context, base, gen string) (Writer, error)
	// Collect removes the states no longer needed once sc is committed.
	Collect(ctx context.Context, sc *fingerprint.Sidecar) error
}

// Change is one part of a change set: chunk IDs to delete, then chunks to
// insert or overwrite, each with its vector when the index has vectors
// (Vecs[i] belongs to Upserts[i]; nil without an embedder).
type Change struct {
	Deletes []string
	Upserts []*Chunk
	Vecs    [][]float32
	Final   bool // the last part
}

// Writer builds one new state. Nothing it does is visible to readers
// before Commit; Close discards a state that was not committed.
type Writer interface {
	// Apply applies one part of the change set and sets the analyzed
	// length (Chunk.Tokens) of each upsert.
	Apply(ctx context.Context, ch Change) error
	// Finish makes the state complete and durable.
	Finish(ctx context.Context) error
	// Commit makes the state the one readers see where the backend has a
	// commit point of its own (Weaviate: the alias swap); the local
	// backend's only commit point is the sidecar, so it does nothing
	// there. A warning reports a commit that happened but left work for
	// the next refresh.
	Commit(ctx context.Context) (warning string, err error)
	Close() error
}

// State is a committed state opened for reading.
type State interface {
	// Query starts one query on the state: its lists and the stored
	// fields of its results come from one consistent view.
	Query(ctx context.Context, q Query) (Lists, error)
	// Verify checks the state against the sidecar: a non-empty reason is
	// a problem with it.
	Verify(ctx context.Context, sc *fingerprint.Sidecar) (string, error)
	Close() error
}

// Query is what a backend needs to know of one query.
type Query struct {
	Text   string
	Facets []string    // filter terms every result's file (or e-mail entry) has, sorted
	Filter *PathFilter // the --path patterns; nil: every path
	Mode   string      // rank.ModeHybrid, ModeBM25 or ModeVector, resolved
	// K files of PerFile chunks each are asked for; each list is
	// oversampled to Want before fusion.
	K, PerFile, Want int
	// K1 and B are the BM25 parameters of a backend that scores BM25
	// itself (the local one).
	K1, B float64
}

// Lists are one query's lists on a state and the stored fields of the
// chunks they hold. Lexical and Dense may run side by side.
type Lists interface {
	// Lexical is the BM25 list, best first, of chunks that pass the
	// filters, and the number of distinct query terms after analysis.
	Lexical(ctx context.Context) ([]rank.Hit, int, error)
	// Dense is the list of the Want chunks nearest to the query vector q
	// that pass the filters, best first.
	Dense(ctx context.Context, q []float32) ([]rank.Hit, error)
	// Vectors returns the lookup of the stored vectors of the chunks in
	// top (a backend may fetch them first): dense feedback
	// (rank.Turn).
	Vectors(ctx context.Context, top []rank.Hit) (func(id string) ([]float32, bool), error)
	// Materialize returns the loader of the stored fields of the ranking's
	// chunks (rank.Page.Walk), of which the first n are likely wanted.
	Materialize(ctx context.Context, ranking []rank.Fused, n int) (func(id, path string, ord int) (rank.Result, error), error)
	Close() error
}

// Deeper is Lists whose bm25-mode list can be scored deeper when
// collapsing used up its chunks: LexicalDeeper is Lexical filling k files
// (the local backend; a remote list stays as deep as it was asked).
type Deeper interface {
	LexicalDeeper(ctx context.Context, k int) ([]rank.Hit, error)
}

// ChunkScorer is Lists that can score the query in the chunks of named
// files alone, whatever their place in the ranking (the local backend):
// the copy of a result in another language's folder (engine/copies) that
// the ranking never reached is shown in its place. ChunksOf returns the
// IDs of those files' chunks that pass the filters, and the BM25 hits
// among them, best first.
type ChunkScorer interface {
	ChunksOf(ctx context.Context, paths []string) (ids []string, bm []rank.Hit, err error)
}

// DefReader is Lists that reads what the definition match needs of a
// chunk (its stored definitions and section, rank.DefsOf) without the
// rest of its stored fields (the local backend; others load the chunk).
type DefReader = rank.DefReader

// The backends' names, as Settings.Backend.Name and the sidecar's
// "backend" setting give them.
const (
	Local    = "local"
	Weaviate = "weaviate"
)

// NameOf is the backend that wrote the state sc names: the first word of
// its fingerprinted backend id, which is "" for the local backend.
func NameOf(sc *fingerprint.Sidecar) string {
	b := sc.Settings["backend"]
	if b == "" {
		return Local
	}
	name, _, _ := strings.Cut(b, " ")
	return name
}
