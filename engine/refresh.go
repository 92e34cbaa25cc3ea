package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/autorag/autorag/engine/integrity"
	"github.com/autorag/autorag/engine/layout"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/engine/recorded"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/internal/memfault"
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
	Check    func() error  // nil, or run first under the lock: its error ends the refresh (package upgrade)
}

// Progress hears how a refresh advances, for a progress line (package progress names its phases).
type Progress = progress.Progress

// RefreshResult is what a refresh did; the CLI prints it as the envelope.
type RefreshResult struct {
	Outcome          string             `json:"outcome"`
	Scanned          int                `json:"scanned"`
	StatSkipped      int                `json:"stat_skipped"`
	Hashed           int                `json:"hashed"`
	Parsed           int                `json:"parsed"`
	OCRPages         int                `json:"ocr_pages"` // pages of scanned PDFs OCR read
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
	Size             *layout.Size       `json:"size,omitempty"` // the committed index on disk, beside the source
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
	if err := e.Layout.CheckRoot(); err != nil {
		return nil, err
	}
	if o.Paths != nil {
		rel, err := mirror.ResolvePaths(ctx, e.Layout.Root, o.Paths)
		if err != nil {
			return nil, usagef("refresh --paths: %v", err)
		}
		o.Paths = rel
	}
	// A fault reading the mapped generation built on is its damage (rebuilt next), not the process's end.
	res, err := underLock(ctx, e, o.Wait, o.Command, func() (res *RefreshResult, err error) {
		if o.Check != nil {
			if err := o.Check(); err != nil {
				return nil, err
			}
		}
		err = memfault.Guard(func() (err error) { res, err = e.refreshLocked(ctx, o); return err })
		return res, integrity.Fault(e.Layout.Dir, e.Layout.SidecarPath(), err)
	})
	if sc, rerr := fingerprint.ReadSidecar(e.Layout.SidecarPath()); err == nil && rerr == nil {
		res.Size = e.size(sc)
	}
	return res, err
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

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (e *Engine) refreshLocked(ctx context.Context, o RefreshOptions) (*RefreshResult, error) {
	clock := progress.NewClock()
	res := &RefreshResult{Stages: clock.Stages}
	sc, err := e.readSidecarForWrite()
	if err != nil {
		return nil, err
	}
	e = e.withRecordedBackend(sc).writing(sc)
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
		o.Progress.Phase(progress.Scan, "files", -1)
		so.OnRead = progress.Parsing(o.Progress)
		so.Notice = o.Progress.Detail
	}
	scan, err := mirror.Scan(ctx, e.Layout.Root, store, man, so)
	if err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}
	if err := store.Sync(); err != nil {
		return nil, fmt.Errorf("sync mirror: %w", err)
	}
	if err := scan.SaveFailures(e.Layout.FailuresPath()); err != nil {
		res.Warnings = append(res.Warnings, "parse-failure memo not saved: "+err.Error()) // parsed again next time
	}
	res.fromScan(scan)
	res.Warnings = append(append(res.Warnings, scan.Warnings...), e.unknownPaths(paths, man)...)
	clock.Mark("scan")
	clock.Carve("scan", "parse", scan.ParseTime)
	if err := failpoint.Hit("after-mirror"); err != nil {
		return nil, err
	}

	fp := e.fingerprintOf(scan.Manifest)
	res.Fingerprint = fp
	scan.Manifest.Stamp = fp // saved with it: the next refresh knows whether it is the committed one's
	if ok, probe := e.unchangedCandidate(sc, fp, o); ok {
		var err error
		if probe {
			err = e.probeCommitted(ctx, sc)
		}
		if err == nil {
			return e.finishUnchanged(res, sc, scan, clock)
		}
		if !errors.Is(err, ErrDamaged) {
			return nil, err
		}
		// Damaged: commitNew's incrementalBase finds it so and rebuilds.
	}
	return e.commitNew(ctx, o, sc, man, scan, store, res, clock)
}

func (res *RefreshResult) fromScan(s *mirror.ScanResult) {
	res.Scanned, res.StatSkipped, res.Hashed, res.Parsed, res.OCRPages = s.Scanned, s.StatSkipped, s.Hashed, s.Parsed, s.OCRPages
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

func (e *Engine) finishUnchanged(res *RefreshResult, sc *fingerprint.Sidecar, scan *mirror.ScanResult, clock *progress.Clock) (*RefreshResult, error) {
	if scan.Changed || scan.Racy > 0 { // a new write time ends the raciness
		if err := scan.Manifest.Save(e.Layout.ManifestPath()); err != nil {
			return nil, fmt.Errorf("save manifest: %w", err)
		}
	}
	res.Outcome = OutcomeUnchanged
	res.Generation = sc.Generation
	res.Chunks = sc.Counts.Chunks
	clock.Mark("commit")
	res.TookMS = ms(time.Since(clock.Start))
	return res, nil
}

// unknownPaths warns of a targeted refresh's paths that name nothing on disk
// or in the index (a typo would otherwise answer "unchanged" and no more).
func (e *Engine) unknownPaths(paths []string, prev *mirror.Manifest) []string {
	var out []string
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(e.Layout.Root, p)
		}
		if _, err := os.Lstat(abs); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		rel, err := filepath.Rel(e.Layout.Root, abs)
		if err != nil || prev.HasUnder(filepath.ToSlash(rel)) {
			continue
		}
		out = append(out, p+": no such file or directory, and nothing was indexed under it")
	}
	return out
}

// writing is e with the embedder a refresh on sc uses: the recorded one
// unless another was chosen; across index versions too (it rebuilds).
func (e *Engine) writing(sc *fingerprint.Sidecar) *Engine {
	built := recorded.Embedder(sc)
	if e.Settings.EmbedderChosen || e.Settings.Recorded == nil || built == "" || recorded.SameEmbedder(built, e.Settings.embedderID()) {
		return e
	}
	return e.withEmbedderOf(built, sc, func(id string) bool { return recorded.SameEmbedder(id, built) })
}
