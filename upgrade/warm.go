package upgrade

import (
	"context"
	"fmt"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/embedding"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/engine/split"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/mirror"
)

// Group is how many chunk texts the upgrader embeds between two flushes
// of the embedding cache: a SIGKILL loses at most the group in flight.
// 64 keeps every core of a transformer busy (it batches by length inside
// a call) while a flush (two fsyncs) stays a small part of a group's time.
const Group = 64

// warmer embeds, without the refresh lock, the chunks of the committed
// mirror that the target's embedding cache lacks.
type warmer struct {
	l      engine.Layout
	target *engine.Engine
	man    *mirror.Manifest
	store  *mirror.Store
	vb     *embedding.Builder
	p      engine.Progress
	// embedded counts the distinct texts sent to the embedder.
	embedded int
	// report hears the count after every flushed group.
	report func(done, total int) error
	// alive, when set, says before each group whether the upgrade is
	// still due (not reset away, not given up): its error ends the run.
	alive func() error
}

// open readies a warmer over the committed manifest, p watching (nil:
// nobody); it only reads the mirror (a refresh running meanwhile may
// replace both).
func open(ctx context.Context, l engine.Layout, target *engine.Engine, p engine.Progress, report func(done, total int) error) (*warmer, error) {
	p = progress.Of(p)
	if err := learnDims(ctx, target, p); err != nil {
		return nil, err
	}
	man, err := mirror.LoadManifest(l.ManifestPath())
	if err != nil {
		return nil, fmt.Errorf("upgrade: read manifest: %w", err)
	}
	vb, err := target.OpenEmbeddings(p)
	if err != nil {
		return nil, err
	}
	return &warmer{l: l, target: target, man: man, store: mirror.OpenStoreReadOnly(l.ObjectsDir()), vb: vb, p: p, report: report}, nil
}

func (w *warmer) close() {
	w.vb.Close()
	w.store.Close()
}

// chunks cuts a mirrored file as a refresh with the target would (a
// parse the syntax module refuses falls back to the line heuristic, as
// in the refresh); nil when its object is gone (edited since: the
// upgrade's commit embeds what replaced it).
func (w *warmer) chunks(ctx context.Context, en mirror.Entry) []*backend.Chunk {
	doc, err := w.store.Get(en.TextHash)
	if err != nil {
		return nil
	}
	docs, _ := split.Doc(ctx, en.Path, doc, w.target.Settings.SplitOptions())
	return docs
}

// count returns how many distinct chunk texts the mirror holds and how
// many of them the cache has vectors for.
func (w *warmer) count(ctx context.Context) (done, total int, err error) {
	seen := map[[32]byte]bool{}
	missing := 0
	for _, en := range w.man.Entries {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		out, met := w.vb.Missing(w.chunks(ctx, en), seen, nil)
		total += met
		missing += len(out)
	}
	return total - missing, total, nil
}

// run embeds every missing chunk in groups, flushing the cache and
// reporting after each. The progress line counts chunks, advanced by the
// embedder's requests (the vb's Watch) as in a refresh's embed phase.
func (w *warmer) run(ctx context.Context) error {
	done, total, err := w.count(ctx)
	if err != nil {
		return err
	}
	w.p.Phase(progress.Embed, "chunks", total)
	w.p.Add(done)
	w.vb.Watch.CountChunks(0)
	if err := w.report(done, total); err != nil {
		return err
	}
	seen := map[[32]byte]bool{}
	var group []*backend.Chunk
	embed := func(n int) error {
		if w.alive != nil {
			if err := w.alive(); err != nil {
				return err
			}
		}
		if _, err := w.vb.Vectors(ctx, group[:n]); err != nil {
			return err
		}
		if err := w.vb.Flush(); err != nil {
			return err
		}
		group, done, w.embedded = group[n:], done+n, w.embedded+n
		if err := w.report(min(done, total), total); err != nil {
			return err
		}
		return failpoint.Hit("upgrade-group")
	}
	for _, en := range w.man.Entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		group, _ = w.vb.Missing(w.chunks(ctx, en), seen, group)
		for len(group) >= Group {
			if err := embed(Group); err != nil {
				return err
			}
		}
	}
	if len(group) == 0 {
		return nil
	}
	return embed(len(group))
}

// dimsLearner is an embedder whose vector size is learned from its
// provider (engine/settings.go): the size is part of the identity that
// names the cache, so it is learned before the cache is opened.
type dimsLearner interface {
	KnowsDims() bool
	ProbeDims(ctx context.Context) error
}

// learnDims learns e's vector size when its provider must tell it, in
// the phase probe of p's line (which shows a 429's wait, as a refresh's
// probe does).
func learnDims(ctx context.Context, e *engine.Engine, p engine.Progress) error {
	l, ok := e.Settings.Embedder.(dimsLearner)
	if !ok || l.KnowsDims() {
		return nil
	}
	p.Phase(progress.Probe, "", -1)
	p.Detail("learning the vector size of the embedding model")
	if err := l.ProbeDims(progress.NewWatch(p).Context(ctx)); err != nil {
		return fmt.Errorf("learn the vector size of the embedding model: %w", err)
	}
	return nil
}
