package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/filetable"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/mirror"
)

// commitNew builds the next generation, commits it through the sidecar and
// collects garbage. On any error before the commit the new generation is
// removed and the old one stays served.
// prev is the manifest scanned against.
func (e *Engine) commitNew(ctx context.Context, o RefreshOptions, sc *fingerprint.Sidecar, prev *mirror.Manifest, scan *mirror.ScanResult,
	store *mirror.Store, res *RefreshResult, clock *progress.Clock) (*RefreshResult, error) {
	st, err := e.storageFor(nil)
	if err != nil {
		return nil, err
	}
	base, prevTable, cs, err := e.incrementalBase(ctx, st, o, sc, prev, scan.Manifest, res)
	if err != nil {
		return nil, err
	}
	defer prevTable.Close()
	current := ""
	if sc != nil {
		current = sc.Generation
	}
	gen, err := e.Layout.NextGeneration(current)
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			_ = os.RemoveAll(e.Layout.GenDir(gen))
		}
	}()
	if err := fingerprint.MkdirAll(e.Layout.GenDir(gen)); err != nil {
		return nil, fmt.Errorf("create generation: %w", err)
	}
	vb, err := e.inProcess(e.openVectorBuilder(o))
	if err != nil {
		return nil, err
	}
	defer vb.Close()
	w, err := st.Begin(ctx, base, gen)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	b := &builder{e: e, store: store, gen: gen, base: base, progress: progress.Of(o.Progress), vb: vb, w: w}
	counts, err := b.build(ctx, prevTable, cs, res)
	if err == nil {
		res.ChunksEmbedded, res.EmbedCacheHits, res.EmbedCacheMisses, res.EmbedInputsSplit, err = vb.FlushCounts()
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	warning, err := w.Commit(ctx)
	if err != nil {
		return nil, err
	}
	if warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	clock.Mark("build")
	next, err := e.newSidecar(sc, gen, res.Fingerprint, counts)
	if err != nil {
		return nil, err
	}
	res.Outcome = OutcomeUpdated
	if base == "" {
		res.Outcome = OutcomeRebuilt
	}
	res.Generation = gen
	res.Chunks = next.Counts.Chunks
	res.TookMS = ms(time.Since(clock.Start))
	next.Refresh = fingerprint.Refresh{Outcome: res.Outcome, At: time.Now().UTC(), TookMS: res.TookMS,
		Added: res.Added, Modified: res.Modified, Deleted: res.Deleted, Renamed: res.Renamed, Failed: res.Failed}
	if err := failpoint.Hit("before-sidecar"); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := fingerprint.WriteSidecar(e.Layout.SidecarPath(), next); err != nil {
		if !fingerprint.Renamed(err) {
			return nil, fmt.Errorf("commit: %w", err)
		}
		// The sidecar is in place: the commit has happened.
		res.Warnings = append(res.Warnings, fmt.Sprintf("commit: %v", err))
	}
	committed = true
	clock.Mark("commit")
	if err := failpoint.Hit("after-sidecar"); err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("after commit: %v", err))
		return res, nil
	}
	e.afterCommit(ctx, st, next, scan, store, res)
	e.collectEmbeddings(ctx, vb, scan.Manifest, store, res)
	clock.Mark("gc")
	res.TookMS = ms(time.Since(clock.Start))
	return res, nil
}

// incrementalBase picks the generation to build on: the committed one when
// it is intact and was built with the same settings; else none (rebuild).
// It returns that generation's file table (nil for none; the caller closes
// it) and the change set from it to man (scanned against prev). A remote
// backend that cannot be reached fails the refresh: a rebuild could not.
func (e *Engine) incrementalBase(ctx context.Context, st backend.Storage, o RefreshOptions, sc *fingerprint.Sidecar,
	prev, man *mirror.Manifest, res *RefreshResult) (string, *filetable.Loaded, filetable.ChangeSet, error) {
	rebuild := func(warning string) (string, *filetable.Loaded, filetable.ChangeSet, error) {
		if warning != "" {
			res.Warnings = append(res.Warnings, warning)
		}
		return "", nil, filetable.Diff(nil, man), nil
	}
	if o.Rebuild || sc == nil || sc.SemanticsVersion != IndexSemanticsVersion || !maps.Equal(sc.Settings, e.Settings.fingerprinted()) {
		return rebuild("")
	}
	if err := st.Check(ctx, sc); unavailable(err) {
		return "", nil, filetable.ChangeSet{}, fmt.Errorf("weaviate: %w (the committed index is untouched and still served)", err)
	} else if err != nil {
		return rebuild(fmt.Sprintf("committed generation damaged, rebuilding: %v", err))
	}
	// Opening the generation to probe it costs what a no-op refresh skips
	// (unchangedCandidate): a settled local generation was not written
	// since its commit, and the build opens it again anyway.
	settled, _ := e.settledLocal(sc)
	if !settled {
		if err := e.probeCommitted(ctx, sc); errors.Is(err, ErrDamaged) {
			return rebuild(fmt.Sprintf("committed generation damaged, rebuilding: %v", err))
		}
	}
	// prev holds the table's paths and text hashes when stamped with sc's
	// fingerprint (refreshLocked stamps each manifest it saves with that of
	// its entries): then only the changed paths are looked up. Only for a
	// settled generation: Open checks the blocks it reads, not the whole.
	changes, known := man.ChangesFrom(prev)
	known = known && settled && prev.Stamp != "" && prev.Stamp == sc.Fingerprint
	c := filetable.Counts{Files: sc.Counts.Files, Chunks: sc.Counts.Chunks, Tokens: sc.Counts.Tokens}
	t, cs, err := filetable.LoadDiff(e.Layout.GenDir(sc.Generation), man, changes, known, c)
	if err != nil {
		return rebuild(fmt.Sprintf("rebuilding: %v", err))
	}
	return sc.Generation, t, cs, nil
}

// settledLocal reports whether sc's generation is local and settled
// (fingerprint.Settled); the error is Check's.
func (e *Engine) settledLocal(sc *fingerprint.Sidecar) (bool, error) {
	settled, err := fingerprint.Settled(e.Layout.Dir, sc.Artifacts, e.Layout.SidecarPath())
	return settled && backendOf(sc) == BackendLocal, err
}

//semguard:begin sidecar-new

func (e *Engine) newSidecar(prev *fingerprint.Sidecar, gen, fp string, counts filetable.Counts) (*fingerprint.Sidecar, error) {
	var reuse *fingerprint.Reuse
	if prev != nil {
		reuse = &fingerprint.Reuse{Dir: "index/" + prev.Generation, Artifacts: prev.Artifacts}
	}
	arts, err := fingerprint.Describe(e.Layout.Dir, "index/"+gen, reuse)
	if err != nil {
		return nil, fmt.Errorf("describe generation: %w", err)
	}
	return &fingerprint.Sidecar{
		Format:           fingerprint.FormatVersion,
		SemanticsVersion: IndexSemanticsVersion,
		Fingerprint:      fp,
		Generation:       gen,
		Settings:         e.Settings.fingerprinted(),
		Counts:           fingerprint.Counts{Files: counts.Files, Chunks: counts.Chunks, Tokens: counts.Tokens},
		Artifacts:        arts,
	}, nil
}

//semguard:end sidecar-new

// afterCommit saves the manifest and removes what the new sidecar no longer
// names. Failures here lose nothing: the commit stands and the next refresh
// retries, so they are reported as warnings.
func (e *Engine) afterCommit(ctx context.Context, st backend.Storage, sc *fingerprint.Sidecar, scan *mirror.ScanResult, store *mirror.Store, res *RefreshResult) {
	warn := func(err error) bool {
		if err != nil {
			res.Warnings = append(res.Warnings, err.Error())
		}
		return err != nil
	}
	if err := scan.Manifest.Save(e.Layout.ManifestPath()); err != nil {
		warn(fmt.Errorf("save manifest: %w", err))
		return
	}
	if warn(failpoint.Hit("after-manifest")) || warn(e.removeGarbage(sc)) || warn(failpoint.Hit("after-gc")) {
		return
	}
	if err := st.Collect(ctx, sc); err != nil {
		warn(fmt.Errorf("collect old states: %w", err))
	}
	if store.CollectDue() { // else there is nothing to publish, sweep or merge
		if err := collectMirror(store, scan.Manifest); err != nil {
			warn(fmt.Errorf("mirror gc: %w", err))
		}
	}
	if warn(failpoint.Hit("after-mirror-gc")) {
		return
	}
	if err := e.dropQueryCache(sc, res.Outcome == OutcomeRebuilt); err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("query cache: %v", err))
	}
}

// dropQueryCache removes cached answers that can no longer be served:
// those of other fingerprints after any commit, all of them after a
// rebuild (a new generation of the same fingerprint keys differently, so
// they would only take space).
func (e *Engine) dropQueryCache(sc *fingerprint.Sidecar, all bool) error {
	q := cache.OpenQueries(filepath.Join(e.Layout.CacheDir(), "query"), 0)
	if all {
		return q.Clear()
	}
	return q.DropOtherFingerprints(sc.Fingerprint)
}

// collectMirror publishes the mirror objects restored during the build and
// removes those the new manifest no longer uses, along with anything left
// by refreshes that failed before committing. The store's packs are read
// by their indexes only, and rewritten only when packs accumulate or dead
// objects can dominate (see mirror.Store.CollectEntries, which builds the
// set of every live text only then), so the cost after a small
// incremental refresh stays small.
func collectMirror(store *mirror.Store, next *mirror.Manifest) error {
	_, err := store.CollectEntries(next.Entries)
	return err
}

// removeStrayTemps removes the temporary files a killed writer left in
// .autorag and mirror/ (a sidecar, counter or manifest never renamed). Only
// writers holding the refresh lock, which the caller holds, write there.
func (e *Engine) removeStrayTemps() error {
	for _, dir := range []string{e.Layout.Dir, e.Layout.MirrorDir()} {
		ents, err := os.ReadDir(dir)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("list %s: %w", dir, err)
		}
		for _, en := range ents {
			if strings.HasPrefix(en.Name(), fingerprint.TempPrefix) && en.Type().IsRegular() {
				if err := os.Remove(filepath.Join(dir, en.Name())); err != nil && !os.IsNotExist(err) {
					return fmt.Errorf("remove stray temporary file: %w", err)
				}
			}
		}
	}
	return nil
}

// removeGarbage deletes everything in the index directory but the
// generation the sidecar names (nil: none): generations left by crashed or
// superseded refreshes and stray temporary names. The caller holds the lock.
func (e *Engine) removeGarbage(sc *fingerprint.Sidecar) error {
	ents, err := os.ReadDir(e.Layout.IndexDir())
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list generations: %w", err)
	}
	for _, en := range ents {
		if sc != nil && en.Name() == sc.Generation {
			continue
		}
		if err := os.RemoveAll(e.Layout.GenDir(en.Name())); err != nil {
			return fmt.Errorf("remove old generation %s: %w", en.Name(), err)
		}
		if err := failpoint.Hit("during-gc"); err != nil {
			return err
		}
	}
	return nil
}
