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
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/lock"
	"github.com/autorag/autorag/mirror"
)

// Outcomes of a refresh.
const (
	OutcomeUnchanged = "unchanged"
	OutcomeUpdated   = "updated"
	OutcomeRebuilt   = "rebuilt"
)

// RefreshOptions select what a refresh does.
type RefreshOptions struct {
	Paths    []string      // targeted refresh: only these paths (relative to the root, or absolute), no walk; one outside the root is ErrUsage
	Rebuild  bool          // full rebuild from sources (index rebuild)
	Wait     time.Duration // how long to wait for the lock; 0 = fail at once
	Command  string        // recorded as the lock holder's command
	Progress Progress      // nil: nobody watches
}

// RefreshResult is what a refresh did; the CLI prints it as the envelope.
type RefreshResult struct {
	Outcome          string             `json:"outcome"`
	Scanned          int                `json:"scanned"`
	StatSkipped      int                `json:"stat_skipped"`
	Hashed           int                `json:"hashed"`
	Parsed           int                `json:"parsed"`
	Added            int                `json:"added"`
	Modified         int                `json:"modified"`
	Deleted          int                `json:"deleted"`
	Renamed          int                `json:"renamed"`
	Failed           int                `json:"failed"`
	Failures         []mirror.Failure   `json:"failures"`
	Files            int                `json:"files"`
	Chunks           int                `json:"chunks"`
	FilesIndexed     int                `json:"files_indexed"`
	ChunksIndexed    int                `json:"chunks_indexed"`
	ChunksEmbedded   int                `json:"chunks_embedded"`
	EmbedCacheHits   int                `json:"embed_cache_hits"`
	EmbedCacheMisses int                `json:"embed_cache_misses"`
	EmbedInputsSplit int                `json:"embed_inputs_split"`
	Fingerprint      string             `json:"fingerprint"`
	Generation       string             `json:"generation"`
	TookMS           float64            `json:"took_ms"`
	Stages           map[string]float64 `json:"stages_ms"`
	Warnings         []string           `json:"warnings,omitempty"`
}

// Engine runs refreshes and queries over one root.
type Engine struct {
	Layout   Layout
	Settings Settings
}

// New returns an engine for root with settings s.
func New(root string, s Settings) (*Engine, error) {
	l, err := NewLayout(root)
	if err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &Engine{Layout: l, Settings: s}, nil
}

// Refresh brings the index up to date under the refresh lock.
func (e *Engine) Refresh(ctx context.Context, o RefreshOptions) (*RefreshResult, error) {
	if o.Paths != nil {
		rel, err := mirror.ResolvePaths(ctx, e.Layout.Root, o.Paths)
		if err != nil {
			return nil, usagef("refresh --paths: %v", err)
		}
		o.Paths = rel
	}
	if err := e.ensureDir(); err != nil {
		return nil, err
	}
	lk, err := lock.Acquire(ctx, e.Layout.LockPath(), o.Wait, o.Command)
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	return e.refreshLocked(ctx, o)
}

// ensureDir creates .autorag with a .gitignore so that nobody commits it.
func (e *Engine) ensureDir() error {
	if err := fingerprint.MkdirAll(e.Layout.Dir); err != nil {
		return fmt.Errorf("create %s: %w", e.Layout.Dir, err)
	}
	gi := filepath.Join(e.Layout.Dir, ".gitignore")
	if _, err := os.Lstat(gi); os.IsNotExist(err) {
		_ = os.WriteFile(gi, []byte("*\n"), fingerprint.FilePerm)
	}
	return nil
}

type stageClock struct {
	start, last time.Time
	stages      map[string]float64
}

func newStageClock() *stageClock {
	now := time.Now()
	return &stageClock{start: now, last: now, stages: map[string]float64{}}
}

func (c *stageClock) mark(name string) {
	now := time.Now()
	c.stages[name] = ms(now.Sub(c.last))
	c.last = now
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (e *Engine) refreshLocked(ctx context.Context, o RefreshOptions) (*RefreshResult, error) {
	clock := newStageClock()
	res := &RefreshResult{Stages: clock.stages}
	sc, err := e.readSidecarForWrite()
	if err != nil {
		return nil, err
	}
	e = e.withRecordedBackend(sc)
	if err := e.removeGarbage(sc); err != nil {
		return nil, err
	}
	if err := e.removeStrayTemps(); err != nil {
		return nil, err
	}
	if err := e.learnDims(ctx, sc, o); err != nil {
		return nil, err
	}
	man := e.loadManifest(o, res)
	store := mirror.OpenStore(e.Layout.ObjectsDir())
	// Close releases the packs. Objects restored after the last Sync and
	// not published by Collect are dropped; the next refresh re-parses them.
	defer store.Close()
	paths := o.Paths
	if len(man.Entries) == 0 || sc == nil {
		paths = nil // a targeted refresh needs a committed base; walk instead
	}
	so := e.scanOptions(paths, o.Rebuild)
	if o.Progress != nil {
		o.Progress.Phase(PhaseScan, "files", -1)
		so.OnRead = parseProgress(o.Progress)
	}
	scan, err := mirror.Scan(ctx, e.Layout.Root, store, man, so)
	if err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}
	if err := store.Sync(); err != nil {
		return nil, fmt.Errorf("sync mirror: %w", err)
	}
	e.saveFailures(scan, res)
	res.fromScan(scan)
	clock.mark("scan")
	if err := failpoint.Hit("after-mirror"); err != nil {
		return nil, err
	}

	fp := e.fingerprintOf(scan.Manifest)
	res.Fingerprint = fp
	if !o.Rebuild && sc != nil && sc.Fingerprint == fp && fingerprint.Check(e.Layout.Dir, sc.Artifacts) == nil {
		return e.finishUnchanged(res, sc, scan, clock)
	}
	return e.commitNew(ctx, o, sc, scan, store, res, clock)
}

func (res *RefreshResult) fromScan(s *mirror.ScanResult) {
	res.Scanned, res.StatSkipped, res.Hashed, res.Parsed = s.Scanned, s.StatSkipped, s.Hashed, s.Parsed
	res.Failures = s.Failed
	if res.Failures == nil {
		res.Failures = []mirror.Failure{}
	}
	res.Failed = len(s.Failed)
	res.Files = len(s.Manifest.Entries)
}

// readSidecarForWrite reads the committed sidecar; nil when nothing was
// ever committed. Any other failure (an I/O error, a format this binary does
// not know, malformed content) stops the refresh before it removes
// anything: garbage is only what a trusted sidecar does not name.
func (e *Engine) readSidecarForWrite() (*fingerprint.Sidecar, error) {
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if errors.Is(err, fingerprint.ErrNoSidecar) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("refusing to refresh, nothing was changed or removed: %w "+
			"(written by a newer autorag? otherwise `autorag index reset --yes` starts over)", err)
	}
	return sc, nil
}

// loadManifest returns the manifest to compare against; a rebuild starts
// from an empty one so that every source is read again.
func (e *Engine) loadManifest(o RefreshOptions, res *RefreshResult) *mirror.Manifest {
	if o.Rebuild {
		return &mirror.Manifest{}
	}
	man, err := mirror.LoadManifest(e.Layout.ManifestPath())
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("ignoring unreadable manifest, rehashing: %v", err))
		return &mirror.Manifest{}
	}
	return man
}

//semguard:begin fingerprint-inputs

func (e *Engine) fingerprintOf(man *mirror.Manifest) string {
	files := make([]fingerprint.FileHash, len(man.Entries))
	for i, en := range man.Entries {
		files[i] = fingerprint.FileHash{Path: en.Path, TextHash: en.TextHash}
	}
	return fingerprint.Compute(fingerprint.Inputs{
		SemanticsVersion: IndexSemanticsVersion,
		Settings:         e.Settings.fingerprinted(),
		Files:            files,
	})
}

//semguard:end fingerprint-inputs

func (e *Engine) finishUnchanged(res *RefreshResult, sc *fingerprint.Sidecar, scan *mirror.ScanResult, clock *stageClock) (*RefreshResult, error) {
	if scan.Changed || scan.Racy > 0 { // a new write time ends the raciness
		if err := scan.Manifest.Save(e.Layout.ManifestPath()); err != nil {
			return nil, fmt.Errorf("save manifest: %w", err)
		}
	}
	res.Outcome = OutcomeUnchanged
	res.Generation = sc.Generation
	res.Chunks = sc.Counts.Chunks
	clock.mark("commit")
	res.TookMS = ms(time.Since(clock.start))
	return res, nil
}

// commitNew builds the next generation, commits it through the sidecar and
// collects garbage. On any error before the commit the new generation is
// removed and the old one stays served.
func (e *Engine) commitNew(ctx context.Context, o RefreshOptions, sc *fingerprint.Sidecar, scan *mirror.ScanResult,
	store *mirror.Store, res *RefreshResult, clock *stageClock) (*RefreshResult, error) {
	st, err := e.storageFor(nil)
	if err != nil {
		return nil, err
	}
	base, prevTable, err := e.incrementalBase(ctx, st, o, sc, res)
	if err != nil {
		return nil, err
	}
	current := ""
	if sc != nil {
		current = sc.Generation
	}
	gen, err := e.Layout.nextGeneration(current)
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
	vb, err := e.openVectorBuilder(o)
	if err != nil {
		return nil, err
	}
	defer vb.close()
	w, err := st.begin(ctx, base, gen)
	if err != nil {
		return nil, err
	}
	defer w.close()
	b := &builder{e: e, store: store, gen: gen, base: base, progress: progressOf(o), vb: vb, w: w}
	table, err := b.build(ctx, prevTable, scan.Manifest, res)
	if err == nil {
		err = vb.flush(res)
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	warning, err := w.commit(ctx)
	if err != nil {
		return nil, err
	}
	if warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	clock.mark("build")
	next, err := e.newSidecar(sc, gen, res.Fingerprint, table)
	if err != nil {
		return nil, err
	}
	res.Outcome = OutcomeUpdated
	if base == "" {
		res.Outcome = OutcomeRebuilt
	}
	res.Generation = gen
	res.Chunks = next.Counts.Chunks
	res.TookMS = ms(time.Since(clock.start))
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
	clock.mark("commit")
	if err := failpoint.Hit("after-sidecar"); err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("after commit: %v", err))
		return res, nil
	}
	e.afterCommit(ctx, st, next, scan, store, res)
	e.collectEmbeddings(vb, scan.Manifest, store, res)
	clock.mark("gc")
	res.TookMS = ms(time.Since(clock.start))
	return res, nil
}

// incrementalBase picks the generation to build on: the committed one when
// it is intact and was built with the same settings; else none (rebuild).
// A remote backend that cannot be reached fails the refresh instead: a
// rebuild could not reach it either.
func (e *Engine) incrementalBase(ctx context.Context, st storage, o RefreshOptions, sc *fingerprint.Sidecar, res *RefreshResult) (string, fileTable, error) {
	if o.Rebuild || sc == nil || sc.SemanticsVersion != IndexSemanticsVersion || !maps.Equal(sc.Settings, e.Settings.fingerprinted()) {
		return "", nil, nil
	}
	if err := st.check(ctx, sc); unavailable(err) {
		return "", nil, fmt.Errorf("weaviate: %w (the committed index is untouched and still served)", err)
	} else if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("committed generation damaged, rebuilding: %v", err))
		return "", nil, nil
	}
	t, err := readFileTable(filepath.Join(e.Layout.GenDir(sc.Generation), "files.bin"))
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("rebuilding: %v", err))
		return "", nil, nil
	}
	return sc.Generation, t, nil
}

//semguard:begin sidecar-new

func (e *Engine) newSidecar(prev *fingerprint.Sidecar, gen, fp string, table fileTable) (*fingerprint.Sidecar, error) {
	var reuse *fingerprint.Reuse
	if prev != nil {
		reuse = &fingerprint.Reuse{Dir: "index/" + prev.Generation, Artifacts: prev.Artifacts}
	}
	arts, err := fingerprint.Describe(e.Layout.Dir, "index/"+gen, reuse)
	if err != nil {
		return nil, fmt.Errorf("describe generation: %w", err)
	}
	chunks, tokens := table.totals()
	return &fingerprint.Sidecar{
		Format:           fingerprint.FormatVersion,
		SemanticsVersion: IndexSemanticsVersion,
		Fingerprint:      fp,
		Generation:       gen,
		Settings:         e.Settings.fingerprinted(),
		Counts:           fingerprint.Counts{Files: len(table), Chunks: chunks, Tokens: tokens},
		Artifacts:        arts,
	}, nil
}

//semguard:end sidecar-new

// afterCommit saves the manifest and removes what the new sidecar no longer
// names. Failures here lose nothing: the commit stands and the next refresh
// retries, so they are reported as warnings.
func (e *Engine) afterCommit(ctx context.Context, st storage, sc *fingerprint.Sidecar, scan *mirror.ScanResult, store *mirror.Store, res *RefreshResult) {
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
	if err := st.collect(ctx, sc); err != nil {
		warn(fmt.Errorf("collect old states: %w", err))
	}
	if err := collectMirror(store, scan.Manifest); err != nil {
		warn(fmt.Errorf("mirror gc: %w", err))
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
// by their indexes only, and rewritten only when dead objects dominate or
// packs accumulate (see mirror.Store.Collect), so the cost after a small
// incremental refresh stays small.
func collectMirror(store *mirror.Store, next *mirror.Manifest) error {
	keep := make(map[mirror.Hash]bool, len(next.Entries))
	for _, en := range next.Entries {
		keep[en.TextHash] = true
	}
	_, err := store.Collect(keep)
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
