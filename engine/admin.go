package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/lock"
	"github.com/autorag/autorag/mirror"
)

// Status is what `autorag status` reports. Everything but the lock holder
// and the sources check is read from the persisted sidecar.
type Status struct {
	Root           string               `json:"root"`
	Indexed        bool                 `json:"indexed"`
	Fingerprint    string               `json:"fingerprint,omitempty"`
	Generation     string               `json:"generation,omitempty"`
	Counts         fingerprint.Counts   `json:"counts"`
	Settings       map[string]string    `json:"settings,omitempty"`
	LastRefresh    *fingerprint.Refresh `json:"last_refresh,omitempty"`
	LockHolder     *lock.Holder         `json:"lock_holder"`
	SourcesChanged *bool                `json:"sources_changed"`
	Current        string               `json:"current_fingerprint,omitempty"`
}

// Status reads the committed state and checks whether the sources have
// changed since: it scans the tree against the manifest without writing
// anything under .autorag (changed files are parsed into a scratch store).
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
	e.assumeRecordedDims(sc)
	cur, err := e.currentFingerprint(ctx)
	if err != nil {
		return nil, err
	}
	changed := cur != sc.Fingerprint
	st.SourcesChanged, st.Current = &changed, cur
	return st, nil
}

func (e *Engine) currentFingerprint(ctx context.Context) (string, error) {
	man, err := mirror.LoadManifest(e.Layout.ManifestPath())
	if err != nil {
		man = &mirror.Manifest{}
	}
	scratch, err := os.MkdirTemp("", "autorag-status-")
	if err != nil {
		return "", fmt.Errorf("status: %w", err)
	}
	defer os.RemoveAll(scratch)
	store := mirror.OpenStore(scratch)
	defer store.Close()
	scan, err := mirror.Scan(ctx, e.Layout.Root, store, man, mirror.ScanOptions{MaxFileSize: e.Settings.MaxFileSize})
	if err != nil {
		return "", fmt.Errorf("status: scan: %w", err)
	}
	return e.fingerprintOf(scan.Manifest), nil
}

// Problem is one finding of Verify.
type Problem = fingerprint.Problem

// Verify recomputes the digest of every artifact the sidecar names and
// opens the generation to check its stamp and document count.
func (e *Engine) Verify(ctx context.Context) ([]Problem, error) {
	sc, err := readCommitted(e.Layout.SidecarPath())
	if err != nil {
		return nil, err
	}
	problems, err := fingerprint.Verify(e.Layout.Dir, sc.Artifacts)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return problems, nil
	}
	idx, err := openBleveRO(filepath.Join(e.Layout.GenDir(sc.Generation), bleveDir), sc.Generation)
	if err != nil {
		return []Problem{{Path: "index/" + sc.Generation, Reason: err.Error()}}, nil
	}
	defer idx.Close()
	n, err := idx.DocCount()
	if err != nil || int(n) != sc.Counts.Chunks {
		return []Problem{{Path: "index/" + sc.Generation, Reason: fmt.Sprintf("holds %d chunks, sidecar says %d (%v)", n, sc.Counts.Chunks, err)}}, nil
	}
	return nil, nil
}

// Reset removes the sidecar, the generations, the mirror and the caches
// under the refresh lock. It never removes the lock file or the config,
// and never follows a symlink (a link is removed, not its target).
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
	for _, p := range []string{e.Layout.SidecarPath(), e.Layout.IndexDir(), e.Layout.MirrorDir(), e.Layout.CacheDir()} {
		if _, err := os.Lstat(p); os.IsNotExist(err) {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			return removed, fmt.Errorf("reset: %w", err)
		}
		rel, _ := filepath.Rel(e.Layout.Root, p)
		removed = append(removed, filepath.ToSlash(rel))
	}
	return removed, fingerprint.SyncDir(e.Layout.Dir)
}
