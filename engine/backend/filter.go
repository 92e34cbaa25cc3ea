package backend

import (
	"github.com/autorag/autorag/engine/pathspec"
	"github.com/autorag/autorag/engine/record"
)

// PathFilter matches result paths against the --path patterns (package
// pathspec: globs, directories as their subtree, brace sets, ! exclusions,
// several patterns as alternatives).
//
// Paths, when not nil, further limits results to those files (the files a
// metadata filter selected), and Chunks to those chunk IDs in e-mail files
// (MayAttach), whose entries a filter selects one by one.
type PathFilter struct {
	Spec   *pathspec.Set
	Paths  map[string]bool
	Chunks map[string]bool
}

// NewPathFilter compiles the --path patterns; nil when there are none.
func NewPathFilter(patterns []string) (*PathFilter, error) {
	spec, err := pathspec.Compile(patterns)
	if err != nil || spec == nil {
		return nil, err
	}
	return &PathFilter{Spec: spec}, nil
}

// Match reports whether the chunk with ID id passes the filter.
func (f *PathFilter) Match(id string) bool {
	if f == nil {
		return true
	}
	path := record.ChunkPath(id)
	if f.Spec != nil && !f.Spec.Match(path) {
		return false
	}
	switch {
	case f.Paths == nil:
		return true
	case MayAttach(path):
		return f.Chunks[id]
	}
	return f.Paths[path]
}
