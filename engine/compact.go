package engine

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/autorag/autorag/engine/filetable"
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
	table, err := filetable.Read(filepath.Join(e.Layout.GenDir(gen), filetable.File))
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
	ls := e.localStorage()
	if err := ls.Compact(ctx, base, gen); err != nil {
		return 0, err
	}
	if err := os.Link(filepath.Join(from, filetable.File), filepath.Join(dir, filetable.File)); err != nil {
		return 0, fmt.Errorf("carry file table: %w", err)
	}
	if err := syncTree(dir); err != nil {
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
