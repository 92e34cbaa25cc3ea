package engine

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"

	"github.com/autorag/autorag/engine/vector"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/lock"
)

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

// Compact merges the committed generation's BM25 segments into one,
// dropping the chunks that refreshes replaced or deleted, when they are at
// least compactMinDeleted of what the segments hold. The merged index is a
// new generation committed like a refresh (under the lock, fsynced, then
// the sidecar): same fingerprint, same answers, fewer and smaller segments.
// Scores do not change: BM25 statistics are the sidecar's, not bleve's.
func (e *Engine) Compact(ctx context.Context, o CompactOptions) (*CompactResult, error) {
	start := time.Now()
	if err := e.ensureDir(); err != nil {
		return nil, err
	}
	lk, err := lock.Acquire(ctx, e.Layout.LockPath(), o.Wait, o.Command)
	if err != nil {
		return nil, err
	}
	defer lk.Release()
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
	st, err := segmentStats(filepath.Join(e.Layout.GenDir(sc.Generation), bleveDir), sc.Generation)
	if err != nil {
		return nil, err
	}
	res.SegmentsBefore, res.SegmentsAfter, res.DeletedBefore, res.DocsBefore = st.segments, st.segments, st.deleted, st.docs
	if !o.Force && (st.docs == 0 || float64(st.deleted) < compactMinDeleted*float64(st.docs)) {
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
	gen, err := e.Layout.nextGeneration(sc.Generation)
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
	table, err := readFileTable(filepath.Join(e.Layout.GenDir(gen), "files.bin"))
	if err != nil {
		return err
	}
	next, err := e.newSidecar(sc, gen, sc.Fingerprint, table)
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
// merged into one, its vectors and file table carried over, fsynced. It
// returns the segment count after the merge.
func (e *Engine) writeCompacted(ctx context.Context, base, gen string) (int, error) {
	from, dir := e.Layout.GenDir(base), e.Layout.GenDir(gen)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("create generation: %w", err)
	}
	bdir := filepath.Join(dir, bleveDir)
	if err := cloneBleve(filepath.Join(from, bleveDir), bdir); err != nil {
		return 0, err
	}
	if err := mergeAll(ctx, bdir, gen); err != nil {
		return 0, err
	}
	if e.Settings.Embedder != nil {
		dims := e.Settings.Embedder.Identity().Dims
		if _, err := vector.Build(filepath.Join(dir, vectorDir), filepath.Join(from, vectorDir), dims, nil, nil); err != nil {
			return 0, fmt.Errorf("carry vectors: %w", err)
		}
	}
	if err := os.Link(filepath.Join(from, "files.bin"), filepath.Join(dir, "files.bin")); err != nil {
		return 0, fmt.Errorf("carry file table: %w", err)
	}
	if err := syncTree(dir); err != nil {
		return 0, err
	}
	if err := fingerprint.SyncDir(e.Layout.IndexDir()); err != nil {
		return 0, err
	}
	st, err := segmentStats(bdir, gen)
	return st.segments, err
}

// mergeAll opens the cloned index at dir, stamps it as gen and merges its
// segments into one, reclaiming deleted chunks.
func mergeAll(ctx context.Context, dir, gen string) error {
	idx, err := openBleveRW(dir)
	if err != nil {
		return err
	}
	// The stamp goes in after the merge: a batch returns once its snapshot
	// is persisted, and a merge alone may still be in memory at Close (the
	// reopened index then listed the three segments it had merged).
	err = mergeToOne(ctx, idx)
	if err == nil {
		err = applyBatch(ctx, idx, nil, nil, gen, false)
	}
	if cerr := idx.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close index: %w", cerr)
	}
	return err
}

// mergeToOne force-merges until one segment is left, in at most
// mergePasses passes: one pass merges at most SegmentsPerMergeTask
// segments per task (21 segments of a churned 100,000-doc index became 3),
// and scorch's own merger may be merging at the same time.
func mergeToOne(ctx context.Context, idx bleve.Index) error {
	adv, err := idx.Advanced()
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil
	}
	opts := mergeplan.SingleSegmentMergePlanOptions
	for range mergePasses {
		st, err := scorchStats(s)
		if err != nil || st.segments <= 1 {
			return err
		}
		if err := s.ForceMerge(ctx, &opts); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
	}
	return nil
}

const mergePasses = 8

// segStats describes the segments of one bleve index.
type segStats struct{ segments, docs, deleted int }

// segmentStats opens a committed generation's index read-only and counts
// its segments, the chunks they hold and how many of those are deleted.
func segmentStats(dir, gen string) (segStats, error) {
	idx, err := openBleveRO(dir, gen)
	if err != nil {
		return segStats{}, err
	}
	defer idx.Close()
	adv, err := idx.Advanced()
	if err != nil {
		return segStats{}, fmt.Errorf("segment stats: %w", err)
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return segStats{}, nil
	}
	return scorchStats(s)
}

// scorchStats counts the segments of an open index's current snapshot.
func scorchStats(s *scorch.Scorch) (segStats, error) {
	r, err := s.Reader()
	if err != nil {
		return segStats{}, fmt.Errorf("segment stats: %w", err)
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return segStats{}, nil
	}
	var st segStats
	for _, seg := range snap.Segments() {
		st.segments++
		st.docs += int(seg.FullSize())
		if d := seg.Deleted(); d != nil {
			st.deleted += int(d.GetCardinality())
		}
	}
	return st, nil
}

// Engine returns the engine a service answers for, so that a long-lived
// process (watch, a server) refreshes and compacts the root it serves.
func (s *Service) Engine() *Engine { return s.e }
