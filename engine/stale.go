package engine

import (
	"context"
	"fmt"

	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/mirror"
)

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
