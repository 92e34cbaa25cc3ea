package upgrade

import (
	"context"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/recorded"
	"github.com/autorag/autorag/fingerprint"
)

// Status is the upgrade due at e's root with Done counted from the
// embedding cache (what survived a crash, not what the record last
// said); nil when none is due. It writes nothing. When the cache cannot
// be read (or a provider's vector size is not known yet) the record's
// count stands.
func Status(ctx context.Context, e *engine.Engine) *Progress {
	rec := Read(e.Layout)
	target, _ := pending(e)
	if target == nil {
		return nil
	}
	if rec == nil || rec.Target != target.EmbedderID() {
		rec = &Record{Target: target.EmbedderID()}
	}
	if l, ok := target.Settings.Embedder.(dimsLearner); ok && !l.KnowsDims() {
		return rec.Of()
	}
	w, err := open(ctx, e.Layout, target, nil, nil)
	if err != nil {
		return rec.Of()
	}
	defer w.close()
	done, total, err := w.count(ctx)
	if err != nil {
		return rec.Of()
	}
	return &Progress{Target: rec.Target, Done: done, Total: total}
}

// Pending is the recorded progress of the upgrade due at e's root (cheap:
// the record only, for every answer); nil when none is due.
func Pending(e *engine.Engine) *Progress {
	target, _ := pending(e)
	if target == nil {
		return nil
	}
	if rec := Read(e.Layout); rec != nil && rec.Target == target.EmbedderID() {
		return rec.Of()
	}
	return &Progress{Target: target.EmbedderID()}
}

// Served is the embedder identity the committed generation gen of e's
// root records, with the upgrade due; "" and nil when gen is no longer
// the committed one (the next answer says).
func Served(e *engine.Engine, gen string) (string, *Progress) {
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil || sc.Generation != gen {
		return "", nil
	}
	return recorded.Embedder(sc), Pending(e)
}
