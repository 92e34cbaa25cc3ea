package engine

import (
	"fmt"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/mirror"
)

// newPathFilter compiles the --path patterns (backend.PathFilter); nil
// when there are none.
func newPathFilter(patterns []string) (*backend.PathFilter, error) {
	f, err := backend.NewPathFilter(patterns)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return f, nil
}

// filterHint is QueryResult.Hint: when res is empty and no file the last
// refresh mirrored matches the --path patterns, it says so (a misspelt
// folder gives no results, and a silent empty answer looks like one).
func (e *Engine) filterHint(res *QueryResult, f *backend.PathFilter) string {
	if len(res.Results) > 0 || f == nil || f.Spec == nil {
		return ""
	}
	man, err := mirror.LoadManifest(e.Layout.ManifestPath())
	if err != nil {
		return ""
	}
	for _, en := range man.Entries {
		if f.Spec.Match(en.Path) {
			return ""
		}
	}
	return fmt.Sprintf("--path %s matches none of the %d indexed files (paths are relative to the root, / separated)", f.Spec, len(man.Entries))
}
