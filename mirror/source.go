package mirror

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// ErrNotSource reports a path that a refresh would not index: outside the
// root, through .git or .autorag, ignored, through a symlinked directory, a
// symlink leaving the root, not a regular file, binary, too large, or of a
// skipped extension. The error's text says which.
var ErrNotSource = errors.New("not an indexed source")

// ReadSource parses the file at rel (relative to root, '/' separated) as a
// refresh would index it, or refuses it with an error wrapping
// ErrNotSource (fs.ErrNotExist when there is no such file). The rules are
// the walk's, applied by the same code as a targeted refresh's (walker.target):
// no absolute paths and no "..", nothing under .git or .autorag, the ignore
// files of every ancestor directory, symlinked directories not entered, a
// symlink to a file only when the walk would index the file, binary and
// oversized files refused. The file is opened through the tree, which
// follows no symlink in any component and never blocks.
func ReadSource(ctx context.Context, root, rel string, maxFileSize int64) (*Doc, error) {
	return ReadSourceFrom(ctx, root, rel, maxFileSize, nil)
}

// ReadSourceFrom is ReadSource answering from m, the last refresh's
// mirrors, when the file is the one mirrored there (see Mirrors.Doc).
func ReadSourceFrom(ctx context.Context, root, rel string, maxFileSize int64, m *Mirrors) (*Doc, error) {
	if maxFileSize <= 0 {
		maxFileSize = DefaultMaxFileSize
	}
	if err := checkRel(rel); err != nil {
		return nil, err
	}
	if _, ok := ParserFor(rel); !ok {
		return nil, refused(rel, "binary extension")
	}
	w, err := newWalker(ctx, root)
	if err != nil {
		return nil, err
	}
	defer w.close()
	c, err := w.sourceTarget(rel)
	if err != nil {
		return nil, err
	}
	if c.size > maxFileSize {
		return nil, refused(rel, fmt.Sprintf("%s (%d bytes)", reasonTooLarge, c.size))
	}
	s := &scanner{ctx: ctx, tree: w.tree, max: maxFileSize}
	data, err := s.read(&c)
	switch {
	case errors.Is(err, ErrBinary):
		return nil, refused(rel, reasonBinary)
	case errors.Is(err, fs.ErrNotExist):
		return nil, err
	case err != nil:
		return nil, refused(rel, err.Error())
	}
	if doc, ok := m.Doc(rel, c.parser, data); ok {
		return doc, nil
	}
	doc, err := Parse(rel, data)
	if errors.Is(err, ErrBinary) {
		return nil, refused(rel, reasonBinary)
	}
	return doc, err
}

// ReadRaw returns the bytes of the source rel, read as a scan reads them
// (the rules and the resolver of ReadSource: no symlinked directory, no
// FIFO or device, nothing ignored), for a caller that must parse a source
// again.
func ReadRaw(ctx context.Context, root, rel string, maxFileSize int64) ([]byte, error) {
	if maxFileSize <= 0 {
		maxFileSize = DefaultMaxFileSize
	}
	if err := checkRel(rel); err != nil {
		return nil, err
	}
	w, err := newWalker(ctx, root)
	if err != nil {
		return nil, err
	}
	defer w.close()
	c, err := w.sourceTarget(rel)
	if err != nil {
		return nil, err
	}
	s := &scanner{ctx: ctx, tree: w.tree, max: maxFileSize}
	return s.read(&c)
}

func refused(rel, reason string) error { return fmt.Errorf("%s: %w: %s", rel, ErrNotSource, reason) }

// checkRel accepts only clean relative paths without "." or ".." parts.
func checkRel(rel string) error {
	switch {
	case rel == "":
		return refused(rel, "empty path")
	case strings.HasPrefix(rel, "/") || filepath.IsAbs(rel):
		return refused(rel, "absolute path")
	case strings.ContainsRune(rel, 0):
		return refused(rel, "NUL in path")
	}
	for part := range strings.SplitSeq(rel, "/") {
		switch part {
		case "..":
			return refused(rel, "path outside root")
		case "", ".":
			return refused(rel, "not a clean path")
		}
		if isInternalName(part) {
			return refused(rel, "internal directory")
		}
	}
	return nil
}

// sourceTarget applies the walk's rules to the one file rel (w.target)
// and returns the candidate to read, or why the walk would not index it.
func (w *walker) sourceTarget(rel string) (candidate, error) {
	fi, err := w.tree.lstat(rel)
	if err == nil && fi.IsDir() {
		return candidate{}, refused(rel, "a directory")
	}
	if err := w.target(rel); err != nil {
		return candidate{}, err
	}
	switch {
	case len(w.failed) > 0:
		return candidate{}, refused(rel, w.failed[len(w.failed)-1].Reason)
	case len(w.files) == 1 && w.files[0].rel == rel:
		return w.files[0], nil
	case err == nil:
		return candidate{}, refused(rel, "not a regular file (a symlink to a directory or a special file)")
	}
	return candidate{}, &fs.PathError{Op: "open", Path: rel, Err: fs.ErrNotExist}
}
