package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/cache"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/mirror"
)

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
