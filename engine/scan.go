package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/mirror"
)

// scanOptions are the mirror scan's options for a refresh: the size cap,
// the default parse limits (mirror/parse.DefaultLimits) and the parse
// failures remembered by earlier refreshes (forgotten by a rebuild, which
// parses every file again).
func (e *Engine) scanOptions(paths []string, rebuild bool) mirror.ScanOptions {
	o := mirror.ScanOptions{Paths: paths, MaxFileSize: e.Settings.MaxFileSize}
	if !rebuild {
		o.Failures = mirror.LoadFailMemo(e.failuresPath())
	}
	return o
}

// failuresPath is the parse-failure memo, beside the manifest.
func (e *Engine) failuresPath() string { return filepath.Join(e.Layout.MirrorDir(), "failed.json") }

// saveFailures writes the scan's parse-failure memo when it changed. It
// only saves work: when it cannot be written the files are parsed again
// next time, so a failure is a warning.
func (e *Engine) saveFailures(scan *mirror.ScanResult, res *RefreshResult) {
	if !scan.FailuresChanged {
		return
	}
	if err := scan.Failures.Save(e.failuresPath()); err != nil {
		res.Warnings = append(res.Warnings, "parse-failure memo not saved: "+err.Error())
	}
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
	changed, err := mirror.Changed(ctx, e.Layout.Root, man, e.Settings.MaxFileSize, mirror.LoadFailMemo(e.failuresPath()))
	if err != nil {
		return false, fmt.Errorf("sources check: %w", err)
	}
	return changed, nil
}

// unknownPaths warns of the paths of a targeted refresh that name nothing:
// no such file or directory, and nothing indexed under that name either (a
// typo would otherwise answer "unchanged" and say no more).
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
		if err != nil || indexedUnder(prev, filepath.ToSlash(rel)) {
			continue
		}
		out = append(out, p+": no such file or directory, and nothing was indexed under it")
	}
	return out
}

// indexedUnder reports whether m has rel or anything below it.
func indexedUnder(m *mirror.Manifest, rel string) bool {
	for _, en := range m.Entries {
		if en.Path == rel || strings.HasPrefix(en.Path, rel+"/") {
			return true
		}
	}
	return false
}
