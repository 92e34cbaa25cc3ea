package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/memfault"
)

// mergeOptions is the segment merge policy of every writer: Lucene-style
// tiers counted in live chunks, with a small floor so that the one-file
// segments of incremental refreshes merge among themselves and a large
// segment is rewritten only when its tier fills up. bleve's default counts
// tiers in file bytes with a floor of several MB, which rewrote a
// half-corpus segment on every other one-file refresh.
func mergeOptions() mergeplan.MergePlanOptions {
	o := mergeplan.DefaultMergePlanOptions
	o.FloorSegmentSize = 64
	o.FloorSegmentFileSize = 0
	return o
}

func createBleve(dir string) (*bleveIndex, error) {
	idx, err := createScorch(dir)
	if err != nil {
		return nil, fmt.Errorf("create index %s: %w", dir, err)
	}
	return idx, nil
}

func openBleveRW(dir string) (*bleveIndex, error) {
	idx, err := openScorch(dir, rwConfig())
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	return idx, nil
}

// openBleveRO opens a committed generation read-only and checks its stamp.
// Committed generations are never opened for writing again, so bolt's
// shared lock never waits; the timeout is a guard, not a mechanism.
func openBleveRO(dir, gen string) (*bleveIndex, error) {
	idx, err := openScorch(dir, map[string]interface{}{"read_only": true, "bolt_timeout": "2s"})
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	if err := checkStamp(idx, gen); err != nil {
		idx.Close()
		return nil, err
	}
	return idx, nil
}

func checkStamp(idx *bleveIndex, gen string) error {
	v, err := idx.GetInternal([]byte(stampKey))
	if err != nil {
		return fmt.Errorf("read generation stamp: %w", err)
	}
	if string(v) != gen {
		return fmt.Errorf("%w: index holds %q, want %q", errStamp, v, gen)
	}
	return nil
}

// cloneBleve prepares dst as a copy of the generation index at src: the
// immutable segment files are hard-linked, the files scorch rewrites in
// place (root.bolt, index_meta.json) are copied. A hard-linked root.bolt
// would let the new generation change the old one.
func cloneBleve(src, dst string) error {
	if err := fingerprint.MkdirAll(filepath.Join(dst, "store")); err != nil {
		return fmt.Errorf("clone index: %w", err)
	}
	if err := copyFile(filepath.Join(src, "index_meta.json"), filepath.Join(dst, "index_meta.json")); err != nil {
		return err
	}
	ents, err := os.ReadDir(filepath.Join(src, "store"))
	if err != nil {
		return fmt.Errorf("clone index: %w", err)
	}
	for _, e := range ents {
		from, to := filepath.Join(src, "store", e.Name()), filepath.Join(dst, "store", e.Name())
		switch {
		case strings.HasSuffix(e.Name(), ".zap"):
			err = os.Link(from, to)
		case e.Name() == "root.bolt":
			err = copyFile(from, to)
		}
		if err != nil {
			return fmt.Errorf("clone index: %w", err)
		}
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, fingerprint.FilePerm)
	if err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", from, err)
	}
	return out.Close()
}

// applyBatch deletes and inserts chunk documents, stamps the generation
// and, with merge, then merges segments so that short-lived writers do not
// leave one more segment per generation. The analyzed length of each
// inserted body is recorded in its Chunk.
//
// A part without deletes is cut into one bleve batch per core, applied
// concurrently: scorch analyzes a batch's documents in parallel but builds
// its segment serially in the caller, so one batch at a time leaves a core
// idle for a third of a first refresh. The sub-batches hold the part's
// documents between them, so memory stays that of one part. A part with
// deletes stays one batch: its deletes must reach the segments that were
// there before it, and only those.
func applyBatch(ctx context.Context, idx *bleveIndex, deletes []string, docs []*backend.Chunk, gen string, merge bool) error {
	subs := splitDocs(docs, len(deletes))
	errs := make(chan error, len(subs))
	for i, sub := range subs {
		dels := deletes
		if i > 0 {
			dels = nil
		}
		go func() { errs <- memfault.Guard(func() error { return indexBatch(ctx, idx, dels, sub, gen) }) }()
	}
	var err error
	for range subs {
		err = errors.Join(err, <-errs)
	}
	if err != nil || !merge {
		return err
	}
	return forceMerge(ctx, idx)
}

// minSubBatch is the fewest chunks given a batch of their own, so that
// small changes do not pay a segment's fixed costs (its build, persistence
// and later merge) twice. A guess, not measured: the first refresh's
// parts are 1,024 chunks, cut into 512 on two cores.
const minSubBatch = 128

// splitDocs cuts a part into the batches applyBatch applies concurrently:
// one per core when the part has no deletes and enough chunks, else the
// part whole. An empty part is one empty batch (it still stamps).
func splitDocs(docs []*backend.Chunk, deletes int) [][]*backend.Chunk {
	n := min(runtime.GOMAXPROCS(0), len(docs)/minSubBatch)
	if deletes > 0 || n < 2 {
		return [][]*backend.Chunk{docs}
	}
	subs := make([][]*backend.Chunk, 0, n)
	for i := range n {
		subs = append(subs, docs[i*len(docs)/n:(i+1)*len(docs)/n])
	}
	return subs
}

// indexBatch applies one bleve batch: the deletes, the documents and the
// generation stamp.
func indexBatch(ctx context.Context, idx *bleveIndex, deletes []string, docs []*backend.Chunk, gen string) error {
	b := idx.NewBatch()
	for _, id := range deletes {
		b.Delete(id)
	}
	bodies := make([]*bodyField, len(docs))
	for i, c := range docs {
		d, body := bleveDoc(c)
		bodies[i] = body
		if err := b.IndexAdvanced(d); err != nil {
			return fmt.Errorf("batch %s: %w", d.ID(), err)
		}
	}
	b.SetInternal([]byte(stampKey), []byte(gen))
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := idx.Batch(b); err != nil {
		return fmt.Errorf("apply batch: %w", err)
	}
	for i, body := range bodies {
		docs[i].Tokens = body.AnalyzedLength()
	}
	return nil
}

func forceMerge(ctx context.Context, idx *bleveIndex) error {
	adv, err := idx.Advanced()
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil
	}
	opts := mergeOptions()
	return forceMergeOnce(ctx, idx, s, &opts)
}
