package upgrade

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/engine/recorded"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/lock"
)

// Options steer an upgrade.
type Options struct {
	Command string
	// Wait is how long to wait for another upgrader of the root to finish
	// (0: fail at once with lock.ErrBusy); CommitWait how long the commit
	// waits for the refresh lock.
	Wait, CommitWait time.Duration
	// Progress, when set, watches the upgrade as a refresh's line: the
	// phase embed in chunks, advancing as the embedder's requests finish,
	// with what the embedder does (a provider's requests in flight and
	// retry waits, the cores of a model run in process), then the
	// commit's refresh.
	Progress engine.Progress
}

// Run finishes the upgrade of e's root, if one is due: it embeds, without
// the refresh lock, every chunk of the committed mirror that the target's
// embedding cache lacks (flushing the cache every Group chunks), then
// commits the upgraded generation by an ordinary refresh with the target
// embedder under the refresh lock. That refresh scans the tree again, so
// edits made meanwhile are in the generation it commits; it embeds only
// their new chunks. It returns the commit's result, nil when no upgrade
// was due.
func Run(ctx context.Context, e *engine.Engine, o Options) (*engine.RefreshResult, error) {
	lk, err := lock.Acquire(ctx, LockPath(e.Layout), o.Wait, o.Command)
	if err != nil {
		return nil, err
	}
	defer func() { _ = lk.Release() }()
	target, err := due(e)
	if target == nil || err != nil {
		return nil, err
	}
	if err := learnDims(ctx, target, progress.Of(o.Progress)); err != nil {
		return nil, err // the size is part of the target's identity
	}
	rec := Read(e.Layout)
	fresh := rec == nil || rec.Target != target.EmbedderID()
	if fresh {
		rec = &Record{Target: target.EmbedderID(), Started: time.Now().UTC()}
	}
	report := func(done, total int) error {
		if err := ours(e.Layout, rec); err != nil {
			return err
		}
		rec.Done, rec.Total = done, total
		return write(e.Layout, rec)
	}
	start := time.Now()
	w, err := open(ctx, e.Layout, target, o.Progress, report)
	if err != nil {
		return nil, err
	}
	if fresh { // written before the first group, so that ours can tell it from another
		if err := write(e.Layout, rec); err != nil {
			w.close()
			return nil, err
		}
	}
	w.alive = func() error { return ours(e.Layout, rec) }
	err = w.run(ctx)
	if err == nil {
		err = ours(e.Layout, rec)
	}
	splits := w.vb.Watch.Splits() // inputs over the provider's budget, sent in pieces
	if errors.Is(err, ErrReset) {
		w.discard() // a group in flight at the reset was written into the cache the reset cleared
	} else {
		w.close() // the commit's refresh writes this cache
	}
	if err != nil {
		return nil, ended(e.Layout, rec, err)
	}
	res, err := commit(ctx, e.Layout, target, rec, o)
	if errors.Is(err, ErrReset) || errors.Is(err, errGivenUp) {
		return nil, ended(e.Layout, rec, err)
	}
	if res != nil { // the chunks embedded before the commit, and the time, are this upgrade's too
		addEmbedding(res, w.embedded, splits, time.Since(start))
	}
	return res, err
}

// ended is what Run returns when err ended the upgrade rec describes
// before its commit (stopped), saying which upgrade.
func ended(l engine.Layout, rec *Record, err error) error {
	if err = stopped(l, rec, err); err != nil {
		return fmt.Errorf("upgrade to %s: %w", ModelName(rec.Target), err)
	}
	return nil
}

// addEmbedding counts in the commit's result res the embedding done
// before it: embedded distinct texts (splits of them over a provider's
// budget) in took, commit included.
func addEmbedding(res *engine.RefreshResult, embedded, splits int, took time.Duration) {
	embedMS := float64(took.Microseconds())/1000 - res.TookMS
	res.TookMS += embedMS
	if res.Stages != nil {
		res.Stages["upgrade_embed"] = embedMS
	}
	res.ChunksEmbedded += embedded
	res.EmbedInputsSplit += splits
	res.EmbedCacheHits -= min(embedded, res.EmbedCacheHits)
	res.EmbedCacheMisses += embedded
}

// due is the engine the root of e is to be upgraded with; nil when no
// upgrade is due (a record left over is dropped).
func due(e *engine.Engine) (*engine.Engine, error) {
	target, committed := pending(e)
	if committed {
		return nil, remove(e.Layout)
	}
	return target, nil
}

// pending is the engine the root of e is to be upgraded with, nil when
// none; committed reports a target the committed index already records.
func pending(e *engine.Engine) (target *engine.Engine, committed bool) {
	target = targetOf(e)
	if target == nil || !Slow(target.Settings.Embedder) {
		return nil, false
	}
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		return nil, false // nothing committed to upgrade (or a sidecar the refresh reports)
	}
	if committedWith(sc, target) {
		return nil, true
	}
	return target, false
}

// commit refreshes with the target embedder and drops the record once
// the sidecar records the target. Under the refresh lock, before anything,
// the upgrade must still be rec's (ours): a reset, or another upgrade,
// since the embedding ended commits nothing.
func commit(ctx context.Context, l engine.Layout, target *engine.Engine, rec *Record, o Options) (*engine.RefreshResult, error) {
	check := func() error { return ours(l, rec) }
	res, err := target.Refresh(ctx, engine.RefreshOptions{Wait: o.CommitWait, Command: o.Command, Check: check, Progress: o.Progress})
	if err != nil {
		return nil, err
	}
	sc, err := fingerprint.ReadSidecar(l.SidecarPath())
	if err == nil && recorded.SameEmbedder(recorded.Embedder(sc), target.EmbedderID()) {
		return res, remove(l)
	}
	return res, nil
}
