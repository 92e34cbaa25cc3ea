package local

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/engine/vector"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
)

// Storage is the local backend: each generation directory holds a bleve
// index and, with an embedder, a vector index (doc.go describes the
// layout). Its states live in the generation directories, which the engine
// creates and removes for every backend.
type Storage struct {
	// Dir is the index's .autorag directory, the root of the sidecar's
	// artifact paths.
	Dir string
	// GenDir is the directory of a generation.
	GenDir func(gen string) string
	// EmbedderID is the fingerprinted ID of the configured embedder, ""
	// without one; Dims is its vector size.
	EmbedderID string
	Dims       int
	// Scorer is the BM25 scorer of the states Open returns.
	Scorer Scorer
}

var _ backend.Storage = Storage{}

// Check reports whether the generation's artifacts match the sidecar.
func (s Storage) Check(_ context.Context, sc *fingerprint.Sidecar) error {
	return fingerprint.Check(s.Dir, sc.Artifacts)
}

// Open opens the generation's bleve index read-only, and its vectors when
// they were built by the configured embedder.
func (s Storage) Open(sc *fingerprint.Sidecar) (backend.State, error) {
	idx, err := openBleveRO(filepath.Join(s.GenDir(sc.Generation), bleveDir), sc.Generation)
	if err != nil {
		return nil, err
	}
	ls := &State{idx: idx, sc: sc, multilingual: sc.Settings["analyzer"] == analyze.MultiVersion, embedder: s.EmbedderID, scorer: s.Scorer}
	if s.Scorer == ScorerPruned {
		ls.tiers = newTierCache(2)
	}
	// An embedder's ID is never "" or "none", the IDs of generations
	// without vectors.
	if s.EmbedderID != "" && sc.Settings["embedder"] == s.EmbedderID {
		ls.vec, err = vector.Open(filepath.Join(s.GenDir(sc.Generation), vectorDir), s.Dims)
		if err != nil {
			idx.Close()
			return nil, fmt.Errorf("open vectors: %w", err)
		}
	}
	return ls, nil
}

//semguard:begin local-storage

// Begin creates the bleve index of gen, or clones base's (hard-linked
// segments, copied root.bolt): the cost of a generation is the change's.
func (s Storage) Begin(_ context.Context, base, gen string) (backend.Writer, error) {
	dir := s.GenDir(gen)
	w := &writer{dir: dir, gen: gen}
	if s.EmbedderID != "" {
		w.dims = s.Dims
	}
	bdir := filepath.Join(dir, bleveDir)
	var err error
	if base == "" {
		w.idx, err = createBleve(bdir)
		return w, err
	}
	w.baseDir = s.GenDir(base)
	if err := cloneBleve(filepath.Join(w.baseDir, bleveDir), bdir); err != nil {
		return nil, err
	}
	w.idx, err = openBleveRW(bdir)
	return w, err
}

// Collect has nothing to do: the engine removes the generation directories
// no sidecar names, and with them their states.
func (Storage) Collect(context.Context, *fingerprint.Sidecar) error { return nil }

// writer writes one generation's bleve and vector indexes.
type writer struct {
	dir, gen string
	baseDir  string // the base generation's directory; "" for a fresh build
	idx      *bleveIndex
	dims     int // vector size; 0 without an embedder
	deletes  []string
	adds     []vector.Entry
}

var _ backend.Writer = (*writer)(nil)

// Apply sends the part to bleve in one batch that also stamps the
// generation (the last one is followed by a merge, mergePersisted) and
// keeps its vectors for finish.
func (w *writer) Apply(ctx context.Context, ch backend.Change) error {
	done := mergesDone(w.idx)
	err := applyBatch(ctx, w.idx, ch.Deletes, ch.Upserts, w.gen, false)
	if err == nil && ch.Final {
		err = mergePersisted(ctx, w.idx, w.gen, done)
	}
	if err != nil {
		return err
	}
	if w.dims == 0 {
		return nil
	}
	w.deletes = append(w.deletes, ch.Deletes...)
	for i, d := range ch.Upserts {
		w.adds = append(w.adds, vector.Entry{ID: record.ChunkID(d.Path, d.Ord), Vec: ch.Vecs[i]})
	}
	return nil
}

// Finish closes the bleve index and writes the vector index from the
// base's: the deleted chunks become tombstones, the new ones a segment.
// The engine fsyncs the whole generation directory afterwards.
func (w *writer) Finish(context.Context) error {
	idx := w.idx
	w.idx = nil
	if err := idx.Close(); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	if err := failpoint.Hit("after-bleve"); err != nil {
		return err
	}
	if w.dims > 0 {
		base := ""
		if w.baseDir != "" {
			base = filepath.Join(w.baseDir, vectorDir)
		}
		if _, err := vector.Build(filepath.Join(w.dir, vectorDir), base, w.dims, w.deletes, w.adds); err != nil {
			return fmt.Errorf("build vectors: %w", err)
		}
	}
	return failpoint.Hit("after-vectors")
}

// Commit does nothing: the sidecar is the local backend's commit point.
func (w *writer) Commit(context.Context) (string, error) { return "", nil }

//semguard:end local-storage

// Close discards a generation that was not finished.
func (w *writer) Close() error {
	if w.idx == nil {
		return nil
	}
	err := w.idx.Close()
	w.idx = nil
	return err
}

// State is a local generation opened for reading: its bleve index and,
// when it has one, its vector index. It stays valid after a newer
// generation is committed (its files are mapped at open).
type State struct {
	idx *bleveIndex
	vec *vector.Index
	sc  *fingerprint.Sidecar // the sidecar that names it: BM25's statistics
	// multilingual: each language's analysis of a query scores only in
	// that language's chunks (querylang.go).
	multilingual bool
	embedder     string // the configured embedder's ID, for errors
	scorer       Scorer
	tiers        *tierCache // nil unless scorer is ScorerPruned

	langOnce sync.Once // languages, read on first use
	langs    *genLangs
	langErr  error
}

var _ backend.State = (*State)(nil)

// Close releases the generation's files.
func (ls *State) Close() error {
	if ls.vec != nil {
		ls.vec.Close()
	}
	return ls.idx.Close()
}

// Verify checks the generation's stamp (at open) and its chunk count.
func (ls *State) Verify(_ context.Context, sc *fingerprint.Sidecar) (string, error) {
	n, err := ls.idx.DocCount()
	if err != nil || int(n) != sc.Counts.Chunks {
		return fmt.Sprintf("holds %d chunks, sidecar says %d (%v)", n, sc.Counts.Chunks, err), nil
	}
	return "", nil
}
