package engine

import (
	"context"
	"fmt"
	"maps"
	"os"
	"time"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/backend/local"
	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/engine/filetable"
	"github.com/autorag/autorag/engine/layout"
	"github.com/autorag/autorag/engine/recorded"
	"github.com/autorag/autorag/fingerprint"
)

// The searchable state of a generation lives in a backend behind the
// storage seam (package backend): the local backend's bleve and vector
// files in the generation directory (package backend/local), or a pair of
// Weaviate collections behind an alias (package backend/weaviate). Everything
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
// embedder (whose vector size must be known by then: learnDims).
func (e *Engine) localStorage() local.Storage {
	s := local.Storage{Dir: e.Layout.Dir, GenDir: e.Layout.GenDir}
	if emb := e.Settings.Embedder; emb != nil {
		s.EmbedderID, s.Dims = e.Settings.embedderID(), emb.Identity().Dims
	}
	return s
}

// backendOf is the backend that wrote the state sc names.
func backendOf(sc *fingerprint.Sidecar) string { return backend.NameOf(sc) }

// weaviateEnv is what the Weaviate backend (engine/backend/weaviate)
// needs of this root: its layout and the configured cluster.
func (e *Engine) weaviateEnv() weaviate.Env {
	b := e.Settings.Backend
	return weaviate.Env{Dir: e.Layout.Dir, GenDir: e.Layout.GenDir, Sidecar: e.Layout.SidecarPath(),
		URL: b.URL, APIKey: b.APIKey, Shards: b.Shards, Replicas: b.Replicas, GRPC: b.GRPC, Namespace: b.Namespace}
}

// weaviateAlias is the alias of this root's Weaviate index
// (weaviate.IndexAlias).
func (e *Engine) weaviateAlias(sc *fingerprint.Sidecar) (string, error) {
	return weaviate.IndexAlias(e.weaviateEnv(), sc)
}

// unavailable reports a Weaviate cluster that is down or degraded: the
// refresh fails (exit 3) rather than rebuilding.
func unavailable(err error) bool { return weaviate.IsUnavailable(err) }

// dropRemote removes the Weaviate state of this root (index reset), when
// the committed index or the configuration says it is in Weaviate.
// It returns what it removed ("" for nothing).
func (e *Engine) dropRemote(ctx context.Context) (string, error) {
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		sc = nil
	}
	if (sc == nil || backendOf(sc) != BackendWeaviate) && e.Settings.Backend.name() != BackendWeaviate {
		return "", nil
	}
	return weaviate.DropIndex(ctx, e.weaviateEnv(), sc)
}

// WeaviateOrphans lists the indexes (aliases) autorag made in the
// configured cluster that this root's index does not name, with their
// collections (weaviate.Orphans). Nothing is changed.
func (e *Engine) WeaviateOrphans(ctx context.Context) (map[string][]string, error) {
	return weaviate.Orphans(ctx, e.weaviateEnv())
}

// DropWeaviateOrphans drops the given aliases that WeaviateOrphans could
// list (never this root's own) with their collections, and returns those
// dropped (weaviate.DropOrphans).
func (e *Engine) DropWeaviateOrphans(ctx context.Context, aliases []string) ([]string, error) {
	return weaviate.DropOrphans(ctx, e.weaviateEnv(), aliases)
}

// OutcomeCompacted is a compaction that committed a merged generation.
const OutcomeCompacted = "compacted"

// compactMinDeleted is the share of the committed index's chunks that must
// be replaced or deleted ones still held in segments before Compact merges:
// below it a merge would rewrite the whole index to reclaim little.
const compactMinDeleted = 0.10

// CompactOptions tune Compact.
type CompactOptions struct {
	Wait    time.Duration // how long to wait for the lock; 0 = fail at once
	Command string        // recorded as the lock holder's command
	Force   bool          // merge even when little is reclaimed
}

// CompactResult says what Compact found and did.
type CompactResult struct {
	Outcome        string  `json:"outcome"` // compacted or unchanged
	Generation     string  `json:"generation"`
	SegmentsBefore int     `json:"segments_before"`
	SegmentsAfter  int     `json:"segments_after"`
	DeletedBefore  int     `json:"deleted_before"` // chunks replaced or deleted but still in segments
	DocsBefore     int     `json:"docs_before"`    // chunks held by the segments, deleted included
	TookMS         float64 `json:"took_ms"`
}

// Compact merges the committed generation's BM25 segments into one (and
// its vector segments), dropping the chunks that refreshes replaced or
// deleted, when they are at
// least compactMinDeleted of what the segments hold. The merged index is a
// new generation committed like a refresh (under the lock, fsynced, then
// the sidecar): same fingerprint, same answers, fewer and smaller segments.
// Scores do not change: BM25 statistics are the sidecar's, not bleve's.
func (e *Engine) Compact(ctx context.Context, o CompactOptions) (*CompactResult, error) {
	start := time.Now()
	return underLock(ctx, e, o.Wait, o.Command, func() (*CompactResult, error) { return e.compactLocked(ctx, o, start) })
}

// compactLocked is Compact under the lock.
func (e *Engine) compactLocked(ctx context.Context, o CompactOptions, start time.Time) (*CompactResult, error) {
	res := &CompactResult{Outcome: OutcomeUnchanged}
	sc, err := readCommitted(e.Layout.SidecarPath())
	if err != nil {
		return nil, err
	}
	res.Generation = sc.Generation
	if b := backendOf(sc); b != BackendLocal {
		return nil, usagef("compact merges the local backend's segments; this index is stored in %s", b)
	}
	if sc.SemanticsVersion != IndexSemanticsVersion || !maps.Equal(sc.Settings, e.Settings.fingerprinted()) {
		return res, nil // the next refresh rebuilds it anyway
	}
	if err := fingerprint.Check(e.Layout.Dir, sc.Artifacts); err != nil {
		return nil, fmt.Errorf("committed generation: %w", err)
	}
	st, err := e.localStorage().Segments(sc.Generation)
	if err != nil {
		return nil, err
	}
	res.SegmentsBefore, res.SegmentsAfter, res.DeletedBefore, res.DocsBefore = st.Segments, st.Segments, st.Deleted, st.Docs
	if !o.Force && (st.Docs == 0 || float64(st.Deleted) < compactMinDeleted*float64(st.Docs)) {
		res.TookMS = ms(time.Since(start))
		return res, nil
	}
	if err := e.commitCompacted(ctx, sc, res); err != nil {
		return nil, err
	}
	res.TookMS = ms(time.Since(start))
	return res, nil
}

// commitCompacted writes the merged generation and commits it.
func (e *Engine) commitCompacted(ctx context.Context, sc *fingerprint.Sidecar, res *CompactResult) error {
	gen, err := e.Layout.NextGeneration(sc.Generation)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			_ = os.RemoveAll(e.Layout.GenDir(gen))
		}
	}()
	after, err := e.writeCompacted(ctx, sc.Generation, gen)
	if err != nil {
		return err
	}
	table, err := filetable.Load(e.Layout.GenDir(gen))
	if err != nil {
		return err
	}
	next, err := e.newSidecar(sc, gen, sc.Fingerprint, table.Table.Counts())
	if err != nil {
		return err
	}
	next.Refresh = sc.Refresh // a compaction changes no source: the last refresh stays the last
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := fingerprint.WriteSidecar(e.Layout.SidecarPath(), next); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	committed = true
	res.Outcome, res.Generation, res.SegmentsAfter = OutcomeCompacted, gen, after
	// The old generation is garbage now; a failure to remove it loses
	// nothing (the next refresh retries), like afterCommit's.
	_ = e.removeGarbage(next)
	return nil
}

// writeCompacted builds generation gen from base with its BM25 segments
// merged into one, its vector segments likewise, its file table carried
// over, fsynced. It
// returns the segment count after the merge.
func (e *Engine) writeCompacted(ctx context.Context, base, gen string) (int, error) {
	from, dir := e.Layout.GenDir(base), e.Layout.GenDir(gen)
	if err := fingerprint.MkdirAll(dir); err != nil { // never the root, if it was deleted
		return 0, fmt.Errorf("create generation: %w", err)
	}
	ls := e.localStorage()
	if err := ls.Compact(ctx, base, gen); err != nil {
		return 0, err
	}
	if err := filetable.Carry(from, dir); err != nil {
		return 0, err
	}
	if err := fingerprint.SyncTree(dir); err != nil {
		return 0, err
	}
	if err := fingerprint.SyncDir(e.Layout.IndexDir()); err != nil {
		return 0, err
	}
	st, err := ls.Segments(gen)
	return st.Segments, err
}

// Engine returns the engine a service answers for, so that a long-lived
// process (watch, a server) refreshes and compacts the root it serves.
func (s *Service) Engine() *Engine { return s.e }

// withRecordedBackend is e with the backend the committed index sc was
// built with, when e's settings name none: a refresh or status after
// `refresh --backend weaviate` needs no flag to stay on Weaviate.
func (e *Engine) withRecordedBackend(sc *fingerprint.Sidecar) *Engine {
	if e.Settings.Backend.Name != "" || sc == nil || sc.Settings["backend"] == "" {
		return e
	}
	cp := *e
	cp.Settings.Backend.Name = backendOf(sc)
	cp.Settings.Backend.Shards, cp.Settings.Backend.Replicas = weaviate.RecordedShape(sc.Settings["backend"])
	return &cp
}

// reading is e with the embedder the committed index sc was built with:
// queries and status follow the index, not the setting (package
// recorded). Without Settings.Recorded, or when it cannot build that
// embedder, it is e (a query then reports the mismatch).
func (e *Engine) reading(sc *fingerprint.Sidecar) *Engine {
	built := recorded.Embedder(sc)
	if e.Settings.Recorded == nil || built == "" || built == e.Settings.embedderID() {
		return e
	}
	return e.withEmbedderOf(built, sc, func(id string) bool { return id == built })
}

// withEmbedderOf is a copy of e with the embedder recorded as built, when
// Settings.Recorded builds one whose identity ok accepts; else e.
func (e *Engine) withEmbedderOf(built string, sc *fingerprint.Sidecar, ok func(id string) bool) *Engine {
	cp := *e
	cp.Settings.Embedder = nil // "none": BM25 only
	if built != "none" {
		emb, err := e.Settings.Recorded(built)
		if err != nil || emb == nil {
			return e
		}
		cp.Settings.Embedder = emb
		cp.assumeRecordedDims(sc)
	}
	if !ok(cp.Settings.embedderID()) {
		return e
	}
	return &cp
}
