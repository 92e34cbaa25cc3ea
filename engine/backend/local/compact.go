package local

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"

	"github.com/autorag/autorag/engine/vector"
)

// Compact writes the bleve and vector indexes of generation gen, whose
// directory exists, from those of base with its BM25 segments merged into
// one (dropping the chunks refreshes replaced or deleted) and its vector
// segments merged into one likewise (vector.Compact). The engine carries
// the file table, fsyncs and commits.
func (s Storage) Compact(ctx context.Context, base, gen string) error {
	from, dir := s.GenDir(base), s.GenDir(gen)
	bdir := filepath.Join(dir, bleveDir)
	if err := cloneBleve(filepath.Join(from, bleveDir), bdir); err != nil {
		return err
	}
	if err := mergeAll(ctx, bdir, gen); err != nil {
		return err
	}
	if s.EmbedderID != "" {
		if _, err := vector.Compact(filepath.Join(dir, vectorDir), filepath.Join(from, vectorDir), s.Dims); err != nil {
			return fmt.Errorf("merge vectors: %w", err)
		}
	}
	return nil
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

// mergePersisted runs the writers' merge policy on idx (forceMerge) after
// its last batch, applied when idx had introduced done merges, and stamps
// gen once more when a merge was introduced since, so that the merged
// segments are what the generation's root.bolt lists: a batch returns once
// a snapshot holding every earlier introduction is persisted, a merge
// alone may still be in memory at Close. Without it the merge of most
// one-file refreshes was lost at Close: the generation kept the merged
// file unlisted, and the next refresh merged the same segments again.
func mergePersisted(ctx context.Context, idx *bleveIndex, gen string, done uint64) error {
	if err := forceMerge(ctx, idx); err != nil {
		return err
	}
	if mergesDone(idx) == done {
		return nil
	}
	return applyBatch(ctx, idx, nil, nil, gen, false)
}

// mergesDone is the number of merges idx has introduced (scorch counts
// one once its introduction is applied).
func mergesDone(idx *bleveIndex) uint64 {
	adv, err := idx.Advanced()
	if err != nil {
		return 0
	}
	if s, ok := adv.(*scorch.Scorch); ok {
		if st, ok := s.Stats().(*scorch.Stats); ok {
			return atomic.LoadUint64(&st.TotFileMergeIntroductionsDone)
		}
	}
	return 0
}

// mergeToOne force-merges until one segment is left, in at most
// mergePasses passes: one pass merges at most SegmentsPerMergeTask
// segments per task (21 segments of a churned 100,000-doc index became 3),
// and scorch's own merger may be merging at the same time.
func mergeToOne(ctx context.Context, idx *bleveIndex) error {
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
		if err != nil || st.Segments <= 1 {
			return err
		}
		if err := forceMergeOnce(ctx, idx, s, &opts); err != nil {
			return err
		}
	}
	return nil
}

const mergePasses = 8

// SegStats describes the segments of one bleve index: how many, the
// chunks they hold and how many of those are deleted (replaced or deleted
// by a refresh but still in a segment).
type SegStats struct{ Segments, Docs, Deleted int }

// Segments opens the committed generation gen's index read-only and counts
// its segments.
func (s Storage) Segments(gen string) (SegStats, error) {
	return segmentStats(filepath.Join(s.GenDir(gen), bleveDir), gen)
}

func segmentStats(dir, gen string) (SegStats, error) {
	idx, err := openBleveRO(dir, gen)
	if err != nil {
		return SegStats{}, err
	}
	defer idx.Close()
	adv, err := idx.Advanced()
	if err != nil {
		return SegStats{}, fmt.Errorf("segment stats: %w", err)
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return SegStats{}, nil
	}
	return scorchStats(s)
}

// scorchStats counts the segments of an open index's current snapshot.
func scorchStats(s *scorch.Scorch) (SegStats, error) {
	r, err := s.Reader()
	if err != nil {
		return SegStats{}, fmt.Errorf("segment stats: %w", err)
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return SegStats{}, nil
	}
	var st SegStats
	for _, seg := range snap.Segments() {
		st.Segments++
		st.Docs += int(seg.FullSize())
		if d := seg.Deleted(); d != nil {
			st.Deleted += int(d.GetCardinality())
		}
	}
	return st, nil
}
