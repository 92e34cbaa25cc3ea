package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/autorag/autorag/fingerprint"
)

// storage keeps the searchable states of an index: the local backend as
// bleve and vector files inside each generation directory
// (storage_local.go), the Weaviate backend as a pair of collections behind
// an alias (storage_weaviate.go). Everything else stays on the client for
// every backend: the mirror, the manifest, the fingerprint and sidecar,
// each generation's file table, the embedding cache and the lock.
//
// A refresh asks the storage whether the committed state can be built on
// (check), starts the next state from it (begin), sends it the change set
// part by part, and commits it; the sidecar, written after the commit,
// records it. Garbage is collected after the sidecar names the new state.
type storage interface {
	// check reports whether the committed state sc names is intact and
	// can be the base of the next one.
	check(ctx context.Context, sc *fingerprint.Sidecar) error
	// open opens the committed state sc names for reading. It does not
	// contact a remote backend: a query does, when it runs.
	open(sc *fingerprint.Sidecar) (state, error)
	// begin starts the state of generation gen from the state of
	// generation base, or from nothing when base is "".
	begin(ctx context.Context, base, gen string) (stateWriter, error)
	// collect removes the states no longer needed once sc is committed.
	collect(ctx context.Context, sc *fingerprint.Sidecar) error
}

// change is one part of a change set: chunk IDs to delete, then chunks to
// insert or overwrite, each with its vector when the index has vectors
// (vecs[i] belongs to upserts[i]; nil without an embedder).
type change struct {
	deletes []string
	upserts []*chunkDoc
	vecs    [][]float32
	final   bool // the last part
}

// stateWriter builds one new state. Nothing it does is visible to readers
// before commit; close discards a state that was not committed.
type stateWriter interface {
	// apply applies one part of the change set and sets the analyzed
	// length (chunkDoc.tokens) of each upsert.
	apply(ctx context.Context, ch change) error
	// finish makes the state complete and durable.
	finish(ctx context.Context) error
	// commit makes the state the one readers see where the backend has a
	// commit point of its own (Weaviate: the alias swap); the local
	// backend's only commit point is the sidecar, so it does nothing
	// there. A warning reports a commit that happened but left work for
	// the next refresh.
	commit(ctx context.Context) (warning string, err error)
	close() error
}

// state is a committed state opened for reading.
type state interface {
	search(ctx context.Context, e *Engine, sc *fingerprint.Sidecar, o QueryOptions, filter *pathFilter) (*QueryResult, error)
	// verify checks the state against the sidecar: a non-empty reason is
	// a problem with it.
	verify(ctx context.Context, sc *fingerprint.Sidecar) (string, error)
	close() error
}

// Backends (Settings.Backend.Name).
const (
	BackendLocal    = "local"
	BackendWeaviate = "weaviate"
)

// storageFor is the storage of the committed state sc names (nil: the
// configured one). A state is read from the backend that wrote it.
func (e *Engine) storageFor(sc *fingerprint.Sidecar) (storage, error) {
	name := e.Settings.Backend.name()
	if sc != nil {
		name = backendOf(sc)
	}
	switch name {
	case BackendLocal:
		return localStorage{l: e.Layout, e: e}, nil
	case BackendWeaviate:
		s, err := e.weaviateStorage(sc)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	return nil, fmt.Errorf("the index was written by an unknown backend %q (a newer autorag?)", name)
}

// backendOf is the backend that wrote the state sc names.
func backendOf(sc *fingerprint.Sidecar) string {
	b := sc.Settings["backend"]
	if b == "" {
		return BackendLocal
	}
	name, _, _ := strings.Cut(b, " ")
	return name
}
