package engine

import (
	"fmt"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/backend/local"
	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/engine/layout"
	"github.com/autorag/autorag/fingerprint"
)

// The searchable state of a generation lives in a backend behind the
// storage seam (package backend): the local backend's bleve and vector
// files in the generation directory (package backend/local), or a pair of
// Weaviate collections behind an alias (storage_weaviate.go). Everything
// else stays on the client for every backend: the mirror, the manifest,
// the fingerprint and sidecar, each generation's file table, the
// embedding cache and the lock.

// Layout names the files and directories under <root>/.autorag (package
// layout).
type Layout = layout.Layout

// DirName is the name of autorag's directory inside the root.
const DirName = layout.DirName

// NewLayout returns the layout for root, which is made absolute.
func NewLayout(root string) (Layout, error) { return layout.New(root) }

// Backends (Settings.Backend.Name).
const (
	BackendLocal    = backend.Local
	BackendWeaviate = backend.Weaviate
)

// storageFor is the storage of the committed state sc names (nil: the
// configured one). A state is read from the backend that wrote it.
func (e *Engine) storageFor(sc *fingerprint.Sidecar) (backend.Storage, error) {
	name := e.Settings.Backend.name()
	if sc != nil {
		name = backendOf(sc)
	}
	switch name {
	case BackendLocal:
		return e.localStorage(), nil
	case BackendWeaviate:
		return weaviate.OpenStorage(e.weaviateEnv(), sc)
	}
	return nil, fmt.Errorf("the index was written by an unknown backend %q (a newer autorag?)", name)
}

// localStorage is the local backend of this root with the configured
// embedder (whose vector size must be known by then: dims.go).
func (e *Engine) localStorage() local.Storage {
	s := local.Storage{Dir: e.Layout.Dir, GenDir: e.Layout.GenDir}
	if emb := e.Settings.Embedder; emb != nil {
		s.EmbedderID, s.Dims = e.Settings.embedderID(), emb.Identity().Dims
	}
	return s
}

// backendOf is the backend that wrote the state sc names.
func backendOf(sc *fingerprint.Sidecar) string { return backend.NameOf(sc) }
