package mirror

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// ErrOutsideRoot reports a path named for a targeted scan that is not
// under the root.
var ErrOutsideRoot = errors.New("path outside root")

// coverage is the set of paths a scan looked at: manifest entries equal to
// or under a covered path are replaced by what the scan found.
type coverage struct {
	all   bool
	paths map[string]bool
}

// covers reports whether the entry path p is p itself or under a covered
// path.
func (c *coverage) covers(p string) bool {
	if c.all {
		return true
	}
	if c.paths[p] {
		return true
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && c.paths[p[:i]] {
			return true
		}
	}
	return false
}

// targeted examines only the named paths (no walk of the tree). A path that
// is gone, ignored, or a non-file is covered but yields no candidate, so its
// entries are removed; a directory is walked recursively. Naming the root
// itself is a full walk.
func (w *walker) targeted(paths []string) (*coverage, error) {
	cov := &coverage{paths: make(map[string]bool, len(paths))}
	for _, p := range paths {
		rel, ok := w.relPath(p)
		switch {
		case !ok:
			w.fail(filepath.ToSlash(p), reasonPathOutsideRoot)
		case rel == "":
			cov.all = true
		default:
			cov.paths[rel] = true
		}
	}
	if cov.all {
		return cov, w.walkAll()
	}
	for rel := range cov.paths {
		if err := w.ctx.Err(); err != nil {
			return nil, err
		}
		if err := w.target(rel); err != nil {
			return nil, err
		}
	}
	w.files = sortUniqueCandidates(w.files)
	return cov, nil
}

// target examines one relative path with every rule of the walk: no
// component inside .git or .autorag, no symlinked directory on the way,
// no ignored ancestor, not ignored itself. A path that no longer exists
// yields nothing, so whatever was indexed under it is deleted; a path that
// exists but cannot be indexed is also reported in failed.
func (w *walker) target(rel string) error {
	if hasInternalDir(rel) {
		w.fail(rel, reasonInternal)
		return nil
	}
	fi, err := w.tree.lstat(rel)
	if errors.Is(err, errSymlinkPath) {
		w.fail(rel, reasonSymlinkDir)
		return nil
	}
	if err != nil {
		w.statFailed(rel, err)
		return nil
	}
	isDir := fi.IsDir()
	stack, ok := w.stackFor(rel)
	if !ok || stack.ignored(rel, isDir) {
		w.fail(rel, ignoredReason(rel))
		return nil
	}
	abs := w.tree.abs(rel)
	switch {
	case isDir:
		return w.walkDir(abs, rel, stack)
	case fi.Mode()&fs.ModeSymlink != 0:
		w.symlink(abs, rel)
	case !fi.Mode().IsRegular():
		w.fail(rel, reasonNotRegular)
	default:
		parser, ok := ParserFor(rel)
		if !ok {
			w.fail(rel, reasonUnsupported)
			return nil
		}
		w.add(rel, "", fi.Size(), fi.ModTime().UnixNano(), parser)
	}
	return nil
}

// stackFor returns the ignore rules that apply inside rel's parent
// directory, and false when an ancestor directory is itself ignored (then
// nothing under it is indexed).
func (w *walker) stackFor(rel string) (ignoreStack, bool) {
	var stack ignoreStack
	if f := w.frame(""); f != nil {
		stack = append(stack, f)
	}
	for i := 0; i < len(rel); i++ {
		if rel[i] != '/' {
			continue
		}
		dir := rel[:i]
		if stack.ignored(dir, true) {
			return nil, false
		}
		if f := w.frame(dir); f != nil {
			stack = append(stack, f)
		}
	}
	return stack, true
}

// frame loads (once per scan) the ignore rules of the directory rel.
func (w *walker) frame(rel string) *ignoreFrame {
	if f, ok := w.frames[rel]; ok {
		return f
	}
	// The ignore files are opened by name: listing the directory to find
	// them cost 10-20 ms in a directory of 16,000 files, more than the rest
	// of a one-file refresh's scan. A directory that is not one (or is
	// reached through a symlink) has no files to open.
	f := w.loadFrame(rel, ignoreFileNames)
	w.frames[rel] = f
	return f
}

// ResolvePaths maps paths given relative to root, or absolute, to the clean
// '/' separated relative paths a targeted scan uses ("" is the root
// itself). A path outside the root is an error wrapping ErrOutsideRoot.
func ResolvePaths(ctx context.Context, root string, paths []string) ([]string, error) {
	w, err := newWalker(ctx, root)
	if err != nil {
		return nil, err
	}
	defer w.close()
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		rel, ok := w.relPath(p)
		if !ok {
			return nil, fmt.Errorf("%s: %w", p, ErrOutsideRoot)
		}
		out = append(out, rel)
	}
	return out, nil
}

// relPath maps a path given by the caller (relative to the root, or
// absolute inside it) to a clean '/' separated relative path.
func (w *walker) relPath(p string) (string, bool) {
	if !filepath.IsAbs(p) {
		c := filepath.ToSlash(filepath.Clean(p))
		if c == ".." || strings.HasPrefix(c, "../") {
			return "", false
		}
		if c == "." {
			c = ""
		}
		return c, true
	}
	c := filepath.Clean(p)
	for _, root := range []string{w.root, w.given} {
		if rel, ok := relUnder(root, c); ok {
			return rel, true
		}
	}
	// The caller may have reached the root through a symlinked ancestor.
	if dir, err := filepath.EvalSymlinks(filepath.Dir(c)); err == nil {
		if rel, ok := relUnder(w.root, filepath.Join(dir, filepath.Base(c))); ok {
			return rel, true
		}
	}
	return "", false
}

// sortUniqueCandidates orders candidates by path and drops repeats (a file
// named both directly and through its directory).
func sortUniqueCandidates(c []candidate) []candidate {
	slices.SortFunc(c, func(a, b candidate) int { return strings.Compare(a.rel, b.rel) })
	return slices.CompactFunc(c, func(a, b candidate) bool { return a.rel == b.rel })
}
