package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/blevesearch/bleve/v2"

	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/engine/vector"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
)

// localStorage is the local backend: each generation directory holds a
// bleve index and, with an embedder, a vector index (doc.go describes the
// layout). Its states live in the generation directories, which the engine
// creates and removes for every backend.
type localStorage struct {
	l Layout
	e *Engine
}

var _ storage = localStorage{}

func (s localStorage) check(_ context.Context, sc *fingerprint.Sidecar) error {
	return fingerprint.Check(s.l.Dir, sc.Artifacts)
}

// open opens the generation's bleve index read-only, and its vectors when
// they were built by the configured embedder.
func (s localStorage) open(sc *fingerprint.Sidecar) (state, error) {
	idx, err := openBleveRO(filepath.Join(s.l.GenDir(sc.Generation), bleveDir), sc.Generation)
	if err != nil {
		return nil, err
	}
	ls := &localState{idx: idx}
	e := s.e
	// An embedder's ID is never "" or "none", the IDs of generations
	// without vectors.
	if e.Settings.Embedder != nil && sc.Settings["embedder"] == e.Settings.embedderID() {
		ls.vec, err = vector.Open(filepath.Join(s.l.GenDir(sc.Generation), vectorDir), e.Settings.Embedder.Identity().Dims)
		if err != nil {
			idx.Close()
			return nil, fmt.Errorf("open vectors: %w", err)
		}
	}
	return ls, nil
}

//semguard:begin local-storage

// begin creates the bleve index of gen, or clones base's (hard-linked
// segments, copied root.bolt): the cost of a generation is the change's.
func (s localStorage) begin(_ context.Context, base, gen string) (stateWriter, error) {
	dir := s.l.GenDir(gen)
	w := &localWriter{dir: dir, gen: gen}
	if s.e.Settings.Embedder != nil {
		w.dims = s.e.Settings.Embedder.Identity().Dims
	}
	bdir := filepath.Join(dir, bleveDir)
	var err error
	if base == "" {
		w.idx, err = createBleve(bdir)
		return w, err
	}
	w.baseDir = s.l.GenDir(base)
	if err := cloneBleve(filepath.Join(w.baseDir, bleveDir), bdir); err != nil {
		return nil, err
	}
	w.idx, err = openBleveRW(bdir)
	return w, err
}

// collect has nothing to do: the engine removes the generation directories
// no sidecar names, and with them their states.
func (localStorage) collect(context.Context, *fingerprint.Sidecar) error { return nil }

// localWriter writes one generation's bleve and vector indexes.
type localWriter struct {
	dir, gen string
	baseDir  string // the base generation's directory; "" for a fresh build
	idx      bleve.Index
	dims     int // vector size; 0 without an embedder
	deletes  []string
	adds     []vector.Entry
}

var _ stateWriter = (*localWriter)(nil)

// apply sends the part to bleve in one batch that also stamps the
// generation (the last one is followed by a forced merge) and keeps its
// vectors for finish.
func (w *localWriter) apply(ctx context.Context, ch change) error {
	if err := applyBatch(ctx, w.idx, ch.deletes, ch.upserts, w.gen, ch.final); err != nil {
		return err
	}
	if w.dims == 0 {
		return nil
	}
	w.deletes = append(w.deletes, ch.deletes...)
	for i, d := range ch.upserts {
		w.adds = append(w.adds, vector.Entry{ID: record.ChunkID(d.Path, d.Ord), Vec: ch.vecs[i]})
	}
	return nil
}

// finish closes the bleve index and writes the vector index from the
// base's: the deleted chunks become tombstones, the new ones a segment.
// The engine fsyncs the whole generation directory afterwards.
func (w *localWriter) finish(context.Context) error {
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

// commit does nothing: the sidecar is the local backend's commit point.
func (w *localWriter) commit(context.Context) (string, error) { return "", nil }

//semguard:end local-storage

func (w *localWriter) close() error {
	if w.idx == nil {
		return nil
	}
	err := w.idx.Close()
	w.idx = nil
	return err
}

// localState is a local generation opened for reading: its bleve index and,
// when it has one, its vector index. It stays valid after a newer
// generation is committed (its files are mapped at open).
type localState struct {
	idx bleve.Index
	vec *vector.Index

	langOnce sync.Once // languages, read on first use
	langs    *genLangs
	langErr  error
}

var _ state = (*localState)(nil)

func (ls *localState) close() error {
	if ls.vec != nil {
		ls.vec.Close()
	}
	return ls.idx.Close()
}

// verify checks the generation's stamp (at open) and its chunk count.
func (ls *localState) verify(_ context.Context, sc *fingerprint.Sidecar) (string, error) {
	n, err := ls.idx.DocCount()
	if err != nil || int(n) != sc.Counts.Chunks {
		return fmt.Sprintf("holds %d chunks, sidecar says %d (%v)", n, sc.Counts.Chunks, err), nil
	}
	return "", nil
}
