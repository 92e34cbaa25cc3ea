package engine

import (
	"fmt"

	"github.com/autorag/autorag/engine/pathspec"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/mirror"
)

// pathFilter matches result paths against the --path patterns (package
// pathspec: globs, directories as their subtree, brace sets, ! exclusions,
// several patterns as alternatives).
//
// paths, when not nil, further limits results to those files (the files a
// metadata filter selected; see filter.go), and chunks to those chunk IDs
// in e-mail files, whose entries a filter selects one by one.
type pathFilter struct {
	spec   *pathspec.Set
	paths  map[string]bool
	chunks map[string]bool
}

func newPathFilter(patterns []string) (*pathFilter, error) {
	spec, err := pathspec.Compile(patterns)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if spec == nil {
		return nil, nil
	}
	return &pathFilter{spec: spec}, nil
}

// match reports whether the chunk with ID id passes the filter.
func (f *pathFilter) match(id string) bool {
	if f == nil {
		return true
	}
	path, _ := record.SplitChunkID(id)
	if f.spec != nil && !f.spec.Match(path) {
		return false
	}
	switch {
	case f.paths == nil:
		return true
	case mayAttach(path):
		return f.chunks[id]
	}
	return f.paths[path]
}

// filterHint is QueryResult.Hint: when res is empty and no file the last
// refresh mirrored matches the --path patterns, it says so (a misspelt
// folder gives no results, and a silent empty answer looks like one).
func (e *Engine) filterHint(res *QueryResult, f *pathFilter) string {
	if len(res.Results) > 0 || f == nil || f.spec == nil {
		return ""
	}
	man, err := mirror.LoadManifest(e.Layout.ManifestPath())
	if err != nil {
		return ""
	}
	for _, en := range man.Entries {
		if f.spec.Match(en.Path) {
			return ""
		}
	}
	return fmt.Sprintf("--path %s matches none of the %d indexed files (paths are relative to the root, / separated)", f.spec, len(man.Entries))
}
