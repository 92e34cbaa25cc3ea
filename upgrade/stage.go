package upgrade

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/engine/recorded"
	"github.com/autorag/autorag/fingerprint"
)

// Plan is what a refresh of a root does about its embedder.
type Plan struct {
	// Writer is the engine the refresh commits with: the configured one,
	// or, while staged, one with the built-in embedder for a root whose
	// committed index does not record an embedder (or records the
	// built-in one), else the recorded embedder (see Stage).
	Writer *engine.Engine
	// Target is the engine with the embedder the upgrade commits; nil
	// when the refresh is not staged.
	Target *engine.Engine
}

// Staged reports whether the refresh commits a first generation and
// leaves the chosen embedder to an upgrade.
func (p Plan) Staged() bool { return p.Target != nil }

// Slow reports whether an embedder is worth staging: a transformer run in
// process or a remote provider. The built-in embedder (provider "local")
// embeds thousands of chunks a second; none (BM25 only) embeds nothing.
func Slow(emb embed.Embedder) bool {
	return emb != nil && emb.Identity().Provider != "local"
}

// Stage plans a refresh of e's root and records the upgrade it starts.
// The target is e's embedder when it was chosen (a flag, the environment,
// the config file), else the target of an upgrade in progress; with no
// target, or a target that is fast or already committed, the refresh is
// not staged and a record left over is dropped. A staged refresh writes
// with the built-in embedder but does not choose it: under the refresh
// lock the engine then follows what the committed index records, so a
// refresh that loses the race to the upgrade's commit keeps the upgraded
// embedder rather than going back, and a switch between two slow
// embedders keeps serving the old one until the new one commits. p (nil:
// nobody) watches the trial of a new target.
func Stage(ctx context.Context, e *engine.Engine, p engine.Progress) (Plan, error) {
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil {
		sc = nil // the refresh itself reports an unreadable sidecar
	}
	target := targetOf(e)
	if target == nil || !Slow(target.Settings.Embedder) {
		if Read(e.Layout) != nil && (e.Settings.EmbedderChosen || !indexed(e.Layout)) {
			// Another embedder was chosen, or nothing is indexed (a reset,
			// a first stage that failed): the refresh follows the
			// settings, and the upgrade is given up.
			return Plan{Writer: e}, remove(e.Layout)
		}
		return Plan{Writer: e}, nil
	}
	if committedWith(sc, target) {
		if Read(e.Layout) != nil {
			return Plan{Writer: target}, remove(e.Layout) // committed already: an incremental refresh
		}
		return Plan{Writer: target}, nil
	}
	if r := Read(e.Layout); r == nil || r.Target != target.EmbedderID() {
		// A new upgrade: the target must work before anything is committed
		// (a model not installed, a provider that refuses: exit 3 as before).
		if err := ready(ctx, target, progress.Of(p)); err != nil {
			return Plan{}, err
		}
		if err := write(e.Layout, &Record{Target: target.EmbedderID(), Started: time.Now().UTC()}); err != nil {
			return Plan{}, err
		}
	}
	return Plan{Writer: fast(e), Target: target}, nil
}

// targetOf is the engine an upgrade of e's root would commit with; nil
// when there is none to make.
func targetOf(e *engine.Engine) *engine.Engine {
	r := Read(e.Layout)
	if e.Settings.EmbedderChosen {
		return assumeRecordedDims(e, r)
	}
	if r == nil || e.Settings.Recorded == nil {
		return nil
	}
	if _, err := os.Stat(e.Layout.SidecarPath()); err != nil {
		return nil // no index (reset, or a first stage that failed): the next refresh uses the setting
	}
	emb, err := e.Settings.Recorded(r.Target)
	if err != nil {
		return nil // the refresh keeps what is committed; status shows the record
	}
	return assumeRecordedDims(with(e, emb, true), r)
}

// assumeRecordedDims gives target's embedder, when its provider must tell
// its vector size and has not yet, the size the upgrade record r holds for
// the same provider and model (as engine does with the committed index's):
// the size is part of the identity that names the target's cache, which
// the record, the eviction's keep and the counts must all name alike.
func assumeRecordedDims(target *engine.Engine, r *Record) *engine.Engine {
	l, ok := target.Settings.Embedder.(dimsLearner)
	if !ok || l.KnowsDims() || r == nil {
		return target
	}
	id := target.EmbedderID()
	if withoutDims(r.Target) != withoutDims(id) {
		return target
	}
	if n, err := strconv.Atoi(r.Target[len(withoutDims(r.Target))+1:]); err == nil && n > 0 {
		l.AssumeDims(n)
	}
	return target
}

// committedWith reports whether the committed index sc records target's
// embedder; a provider's whose vector size is not learned yet compares
// without the size (the refresh takes the recorded one, as engine does).
func committedWith(sc *fingerprint.Sidecar, target *engine.Engine) bool {
	if sc == nil {
		return false
	}
	rec, id := recorded.Embedder(sc), target.EmbedderID()
	if l, ok := target.Settings.Embedder.(dimsLearner); ok && !l.KnowsDims() {
		rec, id = withoutDims(rec), withoutDims(id)
	}
	return recorded.SameEmbedder(rec, id)
}

// withoutDims is an embedder identity without its trailing "/dims".
func withoutDims(id string) string {
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		return id[:i]
	}
	return id
}

// ready embeds one text with the target: it fails as the upgrade would
// when the model is missing or the provider refuses. A provider's vector
// size is learned on the way. Both are the phase probe of p's line, so
// that a provider's 429 waits show.
func ready(ctx context.Context, target *engine.Engine, p engine.Progress) error {
	if err := learnDims(ctx, target, p); err != nil {
		return err
	}
	p.Phase(progress.Probe, "", -1)
	p.Detail("trying " + ModelName(target.EmbedderID()))
	if _, err := target.Settings.Embedder.Embed(progress.NewWatch(p).Context(ctx), []string{"autorag"}); err != nil {
		return fmt.Errorf("embedder %s: %w", ModelName(target.EmbedderID()), err)
	}
	return nil
}

// fast is e with the built-in embedder, not chosen (see Stage).
func fast(e *engine.Engine) *engine.Engine { return with(e, builtin(), false) }

// builtin is the built-in embedder, opened once per process.
var builtin = sync.OnceValue(func() embed.Embedder { return static.New() })

// with is e with the embedder emb.
func with(e *engine.Engine, emb embed.Embedder, chosen bool) *engine.Engine {
	s := e.Settings
	s.Embedder, s.EmbedderChosen = emb, chosen
	return &engine.Engine{Layout: e.Layout, Settings: s}
}

// Refresh runs the first stage of a refresh of e's root: the commit a
// caller that does not wait for the upgrade makes (watch ticks, the
// servers' refresh). It returns the plan it followed.
func Refresh(ctx context.Context, e *engine.Engine, o engine.RefreshOptions) (*engine.RefreshResult, Plan, error) {
	plan, err := Stage(ctx, e, o.Progress)
	if err != nil {
		return nil, plan, err
	}
	res, err := plan.Writer.Refresh(ctx, o)
	return res, plan, err
}
