package upgrade

import (
	"context"
	"fmt"
	"strings"

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

// discard closes the warmer, removing what it wrote into the target's
// cache (embedding.Builder.Discard): after a reset, which cleared the
// cache, that is a group finished since, nobody's.
func (w *warmer) discard() {
	_ = w.vb.Discard()
	w.store.Close()
}

// missing cuts the committed mirror's files once, on every core, as a
// refresh with the target would (split.Files; a parse the syntax module
// refuses falls back to the line heuristic, as in the refresh), and hands
// keep, file by file in the mirror's order, the distinct chunk texts the
// target's cache lacks (keep must not retain the slice: it is reused).
// It returns how many distinct texts the mirror holds. A file whose
// object is gone (edited since) is skipped: the upgrade's commit embeds
// what replaced it.
func (w *warmer) missing(ctx context.Context, keep func([]*backend.Chunk)) (total int, err error) {
	read := func(en mirror.Entry) (*mirror.Doc, error) { return w.store.Get(en.TextHash) }
	next, stop := split.Files(ctx, w.man.Entries, read, w.target.Settings.SplitOptions())
	defer stop()
	seen := map[[32]byte]bool{}
	var miss []*backend.Chunk
	for range w.man.Entries {
		f := next()
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		var met int
		miss, met = w.vb.Missing(f.Chunks, seen, miss[:0]) // none when f.Err: gone
		total += met
		keep(miss)
	}
	return total, nil
}

// todo is what missing finds, with how many distinct texts the mirror
// holds. What it returns holds copies of the texts only (slim), not the
// documents they were cut from.
func (w *warmer) todo(ctx context.Context) (todo []*backend.Chunk, total int, err error) {
	total, err = w.missing(ctx, func(miss []*backend.Chunk) {
		for _, d := range miss {
			todo = append(todo, slim(d))
		}
	})
	if err != nil {
		return nil, 0, err
	}
	return todo, total, nil
}

// slim is the part of d its vector is computed from (Body), copied out of
// the document it was cut from.
func slim(d *backend.Chunk) *backend.Chunk {
	return &backend.Chunk{Title: strings.Clone(d.Title), Section: strings.Clone(d.Section), Text: strings.Clone(d.Text)}
}

// count returns how many distinct chunk texts the mirror holds and how
// many of them the cache has vectors for, copying no text.
func (w *warmer) count(ctx context.Context) (done, total int, err error) {
	lacking := 0
	total, err = w.missing(ctx, func(miss []*backend.Chunk) { lacking += len(miss) })
	if err != nil {
		return 0, 0, err
	}
	return total - lacking, total, nil
}

// run embeds every missing chunk in groups, flushing the cache and
// reporting after each. The progress line counts chunks, advanced by the
// embedder's requests (the vb's Watch) as in a refresh's embed phase.
func (w *warmer) run(ctx context.Context) error {
	todo, total, err := w.todo(ctx)
	if err != nil {
		return err
	}
	done := total - len(todo)
	if err := w.report(done, total); err != nil {
		return err
	}
	w.p.Phase(progress.Embed, "chunks", total)
	w.p.Add(done)
	w.vb.Watch.CountChunks(0)
	for len(todo) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		if w.alive != nil {
			if err := w.alive(); err != nil {
				return err
			}
		}
		group := todo[:min(Group, len(todo))]
		if _, err := w.vb.Vectors(ctx, group); err != nil {
			return err
		}
		if err := w.vb.Flush(); err != nil {
			return err
		}
		todo, done, w.embedded = todo[len(group):], done+len(group), w.embedded+len(group)
		if err := w.report(done, total); err != nil {
			return err
		}
		if err := failpoint.Hit("upgrade-group"); err != nil {
			return err
		}
	}
	return nil
}

// dimsLearner is an embedder whose vector size is learned from its
// provider (engine/settings.go): the size is part of the identity that
// names the cache, so it is learned before the cache is opened.
type dimsLearner interface {
	KnowsDims() bool
	AssumeDims(n int)
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
