package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/embedding"
	"github.com/autorag/autorag/engine/integrity"
	"github.com/autorag/autorag/engine/layout"
	"github.com/autorag/autorag/engine/recorded"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/lock"
	"github.com/autorag/autorag/mirror"
)

// Status is what `autorag status` reports: all but the lock holder and the sources check from the sidecar.
type Status struct {
	Root            string               `json:"root"`
	Indexed         bool                 `json:"indexed"`
	Fingerprint     string               `json:"fingerprint,omitempty"`
	Generation      string               `json:"generation,omitempty"`
	Counts          fingerprint.Counts   `json:"counts"`
	Settings        map[string]string    `json:"settings,omitempty"`
	LastRefresh     *fingerprint.Refresh `json:"last_refresh,omitempty"`
	LockHolder      *lock.Holder         `json:"lock_holder"`
	SourcesChanged  *bool                `json:"sources_changed"`
	Current         string               `json:"current_fingerprint,omitempty"`
	Embedder        string               `json:"embedder,omitempty"`         // the index's: it answers queries
	SettingsChanged []string             `json:"settings_changed,omitempty"` // a refresh would apply them
	Size            *layout.Size         `json:"size,omitempty"`             // on disk, beside the source
}

// Status reads the committed state and checks whether the sources changed
// since, under the recorded settings (package recorded): it scans the tree
// against the manifest, writing nothing (changed files are hashed, not stored).
func (e *Engine) Status(ctx context.Context) (*Status, error) {
	st := &Status{Root: e.Layout.Root}
	holder, err := lock.Inspect(e.Layout.LockPath())
	if err != nil {
		return nil, err
	}
	st.LockHolder = holder
	sc, err := readCommitted(e.Layout.SidecarPath())
	if errors.Is(err, ErrNoIndex) {
		return st, err
	}
	if err != nil {
		return nil, err
	}
	st.Indexed, st.Fingerprint, st.Generation = true, sc.Fingerprint, sc.Generation
	st.Counts, st.Settings, st.LastRefresh = sc.Counts, sc.Settings, &sc.Refresh
	e = e.withRecordedBackend(sc)
	e.assumeRecordedDims(sc)
	st.Embedder, st.SettingsChanged = e.reading(sc).Settings.embedderID(), recorded.Changed(e.writing(sc).Settings.fingerprinted(), sc.Settings)
	cur, err := e.currentFingerprint(ctx, sc)
	if err != nil {
		return nil, err
	}
	changed := cur != sc.Fingerprint
	st.SourcesChanged, st.Current, st.Size = &changed, cur, e.size(sc)
	return st, nil
}

// size is what the committed index sc takes on disk beside the indexed
// files' bytes (layout.Size).
func (e *Engine) size(sc *fingerprint.Sidecar) *layout.Size {
	return e.Layout.SizeOf(sc, mirror.SourceBytes(e.Layout.ManifestPath()))
}

func (e *Engine) currentFingerprint(ctx context.Context, sc *fingerprint.Sidecar) (string, error) {
	man, err := mirror.LoadManifest(e.Layout.ManifestPath())
	if err != nil {
		man = &mirror.Manifest{}
	}
	// Changed files are parsed to hash their text, never stored: status
	// writes nothing, anywhere.
	store := mirror.OpenStoreReadOnly(e.Layout.ObjectsDir())
	defer store.Close()
	scan, err := mirror.Scan(ctx, e.Layout.Root, store, man, e.scanOptions(nil, false))
	if err != nil {
		return "", fmt.Errorf("status: scan: %w", err)
	}
	return recorded.SourcesFingerprint(scan.Manifest, sc, IndexSemanticsVersion), nil
}

// scanOptions are the scan options of a refresh (or a status): the size cap, the default parse
// limits and, but for a rebuild (which parses all again), remembered failures.
func (e *Engine) scanOptions(paths []string, rebuild bool) mirror.ScanOptions {
	o := mirror.ScanOptions{Paths: paths, MaxFileSize: e.Settings.MaxFileSize, OCR: mirror.OCRFinder(e.Settings.OCR, e.Settings.OCRCommand)}
	if !rebuild {
		o.Failures = mirror.LoadFailMemo(e.Layout.FailuresPath())
	}
	return o
}

// Problem is one finding of Verify.
type Problem = fingerprint.Problem

// Verify recomputes the digest of every artifact the sidecar names and opens the
// generation to check its stamp and document count, on a consistent snapshot: when it
// finds problems and a refresh committed meanwhile (the old generation may have been
// collected under it) it starts over from the new sidecar, at most 8 times. Problems
// are reported only when the sidecar that named them is still the committed one.
func (e *Engine) Verify(ctx context.Context) ([]Problem, error) {
	var problems []Problem
	for range 8 {
		sc, err := readCommitted(e.Layout.SidecarPath())
		if err != nil {
			return nil, err
		}
		_ = failpoint.Hit("verify-after-sidecar")
		if problems, err = e.verifyGeneration(ctx, sc); err != nil || len(problems) == 0 {
			return problems, err
		}
		now, err := readCommitted(e.Layout.SidecarPath())
		if err != nil || !integrity.SameCommit(now, sc) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			continue // a refresh committed meanwhile: check the new one
		}
		return problems, nil
	}
	return problems, nil
}

// verifyGeneration checks the artifacts sc names and the state they belong to in its
// backend (the local stamp and chunk count; Weaviate: the alias and the object count).
func (e *Engine) verifyGeneration(ctx context.Context, sc *fingerprint.Sidecar) ([]Problem, error) {
	problems, err := fingerprint.Verify(e.Layout.Dir, sc.Artifacts)
	if err != nil || len(problems) > 0 {
		return problems, err
	}
	g, err := e.OpenGeneration(sc)
	if err != nil {
		return []Problem{{Path: "index/" + sc.Generation, Reason: err.Error()}}, nil
	}
	defer g.Close()
	reason, err := g.st.Verify(ctx, sc)
	if err != nil || reason == "" {
		return nil, err
	}
	return []Problem{{Path: "index/" + sc.Generation, Reason: reason}}, nil
}

// underLock creates .autorag, takes the refresh lock (waiting up to wait, recording
// command as the holder) and runs fn holding it: a refresh's and a compaction's start.
func underLock[T any](ctx context.Context, e *Engine, wait time.Duration, command string, fn func() (T, error)) (T, error) {
	var zero T
	if err := e.ensureDir(); err != nil {
		return zero, err
	}
	lk, err := lock.Acquire(ctx, e.Layout.LockPath(), wait, command)
	if err != nil {
		return zero, err
	}
	defer lk.Release()
	return fn()
}

// Reset removes the sidecar, the upgrade record (a running upgrader stops), the generations, the
// mirror and the caches under the refresh lock. It never removes the lock file, the config, the
// generation counter or a cache's lock file, and never follows a symlink (removes the link).
func (e *Engine) Reset(ctx context.Context, wait time.Duration, command string) ([]string, error) {
	if _, err := os.Lstat(e.Layout.Dir); os.IsNotExist(err) {
		return nil, nil
	}
	lk, err := lock.Acquire(ctx, e.Layout.LockPath(), wait, command)
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	var removed []string
	if dropped, err := e.dropRemote(ctx); err != nil {
		return nil, fmt.Errorf("reset: %w (nothing was removed)", err)
	} else if dropped != "" {
		removed = append(removed, dropped)
	}
	steps := []struct{ path, failpoint string }{
		{e.Layout.SidecarPath(), "reset-after-sidecar"},
		{e.Layout.UpgradePath(), "reset-after-upgrade"},
		{e.Layout.IndexDir(), "reset-after-index"},
		{e.Layout.MirrorDir(), "reset-after-mirror"},
	}
	for _, st := range steps {
		if _, err := os.Lstat(st.path); !os.IsNotExist(err) {
			if err := os.RemoveAll(st.path); err != nil {
				return removed, fmt.Errorf("reset: %w", err)
			}
			removed = append(removed, e.relPath(st.path))
		}
		if err := failpoint.Hit(st.failpoint); err != nil {
			return removed, fmt.Errorf("reset: %w", err)
		}
	}
	if did, err := cache.RemoveAll(e.Layout.CacheDir()); err != nil {
		return removed, fmt.Errorf("reset: %w", err)
	} else if did {
		removed = append(removed, e.relPath(e.Layout.CacheDir()))
	}
	return removed, fingerprint.SyncDir(e.Layout.Dir)
}

func (e *Engine) relPath(p string) string {
	rel, _ := filepath.Rel(e.Layout.Root, p)
	return filepath.ToSlash(rel)
}

// ErrDamaged reports a committed generation whose artifacts no longer
// match the digests of the sidecar that names it (package integrity).
var ErrDamaged = integrity.ErrDamaged

// damage is integrity.Damage of the generation sc names.
func (e *Engine) damage(sc *fingerprint.Sidecar) error { return integrity.Damage(e.Layout.Dir, sc) }

// unchangedCandidate reports whether a refresh may report the committed
// state unchanged: not a rebuild, the same fingerprint, and every artifact
// there at its recorded size (fingerprint.Check). probe is false when,
// moreover, the local generation is settled (fingerprint.Settled: none of
// its files written since the commit), so that it need not be opened to
// know it can be served; a Weaviate generation is always probed.
func (e *Engine) unchangedCandidate(sc *fingerprint.Sidecar, fp string, o RefreshOptions) (ok, probe bool) {
	if o.Rebuild || sc == nil || sc.Fingerprint != fp {
		return false, false
	}
	settled, err := e.settledLocal(sc)
	if err != nil {
		return false, false
	}
	return true, !settled
}

// probeCommitted checks, when a refresh is about to report the committed
// state unchanged, that it can still be served: the local generation is
// opened as a query would (one whose files kept their sizes but not their
// bytes opens badly, or not at all), and a Weaviate alias must still name
// the collection the generation recorded (collections dropped behind the
// index's back). It returns the damage found (wrapping ErrDamaged), so
// that the refresh rebuilds rather than serve it damaged for good; an
// unreachable cluster is an error of its own.
func (e *Engine) probeCommitted(ctx context.Context, sc *fingerprint.Sidecar) error {
	if backendOf(sc) == BackendWeaviate {
		st, err := e.storageFor(sc)
		if err != nil {
			return err
		}
		if err := st.Check(ctx, sc); unavailable(err) {
			return err
		} else if err != nil {
			return fmt.Errorf("%w (generation %s: %v)", ErrDamaged, sc.Generation, err)
		}
		return nil
	}
	g, err := e.OpenGeneration(sc)
	if err == nil {
		_ = g.Close()
		// Rewritten in place (zeroed), a generation may still open.
		if integrity.Intact(e.Layout.Dir, sc) {
			return nil
		}
		return e.damage(sc)
	}
	if d := e.damage(sc); d != nil {
		return d
	}
	return fmt.Errorf("open generation %s: %w", sc.Generation, err)
}

// SourcesChanged reports whether a refresh now would commit something new
// over sc: the saved manifest is not the one sc was built from (a commit
// whose manifest is not saved yet, or a failed save), or the tree differs
// from the manifest (mirror.Changed: a stat walk, reading only files whose
// size or mtime moved). It writes nothing. Unlike Status it does not
// parse changed files, so a change of bytes that leaves the text equal
// counts as a change.
func (e *Engine) SourcesChanged(ctx context.Context, sc *fingerprint.Sidecar) (bool, error) {
	man, err := mirror.LoadManifest(e.Layout.ManifestPath())
	if err != nil {
		return true, nil // a refresh would rehash everything
	}
	if e.fingerprintOf(man) != sc.Fingerprint {
		return true, nil
	}
	changed, err := mirror.Changed(ctx, e.Layout.Root, man, e.Settings.MaxFileSize, mirror.LoadFailMemo(e.Layout.FailuresPath()))
	if err != nil {
		return false, fmt.Errorf("sources check: %w", err)
	}
	return changed, nil
}

// OpenEmbeddings opens the embedding cache of e's embedder as a refresh does (nil without one).
func (e *Engine) OpenEmbeddings(p Progress) (*embedding.Builder, error) {
	return e.inProcess(e.openVectorBuilder(RefreshOptions{Progress: p}))
}
