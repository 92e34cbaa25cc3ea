package local

import (
	"context"
	"fmt"
	"sync"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// mergeDoneKey is scorch's own context key (merge.go) for a channel that
// hears the outcome of a forced merge.
const mergeDoneKey = "mergeDone"

// asyncErrorsName is the name under which scorch calls asyncErrors.
const asyncErrorsName = "autorag"

func init() { scorch.RegistryAsyncErrorCallbacks[asyncErrorsName] = asyncErrors }

// mergeWaiters are the forced merges waiting, by the path of their
// index's store, for an error of its merger or persister.
var mergeWaiters sync.Map // string → chan error

// asyncErrors hands an error scorch's merger or persister met in the
// background to the forced merge waiting on that index, if any.
func asyncErrors(err error, path string) {
	if ch, ok := mergeWaiters.Load(path); ok {
		select {
		case ch.(chan error) <- err:
		default:
		}
	}
}

// forceMergeOnce runs one forced merge of s (idx's scorch) and returns its
// error. A merge that fails (ENOSPC while writing the merged segment) is
// retried by scorch's merger for ever, and ForceMerge waits for it; the
// merger's background merges likewise retry without end, and a forced one
// then never even starts. So ForceMerge runs apart, and the wait ends at
// the first of: the merge's outcome (scorch's mergeDone channel, which
// also stops the retries of a forced merge), ForceMerge's return (refused,
// or the index closed), an asynchronous error of the index, or ctx.
func forceMergeOnce(ctx context.Context, idx *bleveIndex, s *scorch.Scorch, opts *mergeplan.MergePlanOptions) error {
	done, returned, failed := make(chan error, 1), make(chan error, 1), make(chan error, 1)
	if idx.store != "" {
		mergeWaiters.Store(idx.store, failed)
		defer mergeWaiters.Delete(idx.store)
	}
	//lint:ignore SA1029 the key is scorch's, a plain string
	mctx := context.WithValue(ctx, mergeDoneKey, done)
	go func() { returned <- s.ForceMerge(mctx, opts) }()
	var err error
	select {
	case err = <-done:
	case err = <-returned:
	case err = <-failed:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	return nil
}
