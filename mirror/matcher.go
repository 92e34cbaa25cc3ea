package mirror

import (
	"context"
	"path"
)

// Matcher answers, for a watcher, whether a path under the root is one a
// scan would skip: ignored by the rules of its ignore files, hidden, or
// inside .git or .autorag. It reads each directory's ignore files once; Reset
// forgets them so that edited ignore files are read again. A Matcher is
// not safe for concurrent use.
type Matcher struct {
	w *walker
}

// NewMatcher returns a matcher for root.
func NewMatcher(ctx context.Context, root string) (*Matcher, error) {
	w, err := newWalker(ctx, root)
	if err != nil {
		return nil, err
	}
	return &Matcher{w: w}, nil
}

// Close releases the root's descriptors.
func (m *Matcher) Close() { m.w.close() }

// Root is the absolute root with symlinks resolved: the directory whose
// paths Rel accepts.
func (m *Matcher) Root() string { return m.w.root }

// Rel maps an absolute path under the root to its relative '/' form.
func (m *Matcher) Rel(abs string) (string, bool) { return m.w.relPath(abs) }

// Skipped reports whether a scan skips the relative path rel (a directory
// when isDir): inside .git or .autorag, under an ignored directory, or
// ignored itself.
func (m *Matcher) Skipped(rel string, isDir bool) bool {
	if rel == "" {
		return false
	}
	if hasInternalDir(rel) {
		return true
	}
	stack, ok := m.w.stackFor(rel)
	return !ok || stack.ignored(rel, isDir)
}

// Reset forgets the ignore rules read so far.
func (m *Matcher) Reset() {
	m.w.frames = make(map[string]*ignoreFrame)
	m.w.failed = nil // unreadable ignore files, which a scan reports
}

// IsIgnoreFile reports whether the base name of rel is an ignore file
// (.gitignore, .ignore, .autoragignore), whose edits change what is indexed.
func IsIgnoreFile(rel string) bool { return ignoreFileKind(path.Base(rel)) >= 0 }
