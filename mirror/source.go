package mirror

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
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
// the walk's: no absolute paths and no "..", nothing under .git or
// .autorag, the ignore files of every ancestor directory, symlinked
// directories not entered, a symlink to a file only when the file is
// inside the root, binary and oversized files refused. The file is opened
// through os.Root, so a component swapped for a symlink after the checks
// still cannot lead outside the root.
func ReadSource(ctx context.Context, root, rel string, maxFileSize int64) (*Doc, error) {
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
	target, err := w.sourceTarget(rel)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(w.root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	parser, _ := ParserFor(rel)
	data, err := readRooted(r, target, maxFileSize, parser)
	if err != nil {
		return nil, err
	}
	doc, err := Parse(rel, data)
	if errors.Is(err, ErrBinary) {
		return nil, refused(rel, reasonBinary)
	}
	return doc, err
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

// sourceTarget applies the walk's rules to rel and returns the path to
// open, relative to the root: rel itself, or where the symlink rel leads.
func (w *walker) sourceTarget(rel string) (string, error) {
	if _, ok := ParserFor(rel); !ok {
		return "", refused(rel, "binary extension")
	}
	w.frames = make(map[string]*ignoreFrame)
	for i := 0; i < len(rel); i++ {
		if rel[i] != '/' {
			continue
		}
		fi, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(rel[:i])))
		if err != nil {
			return "", err
		}
		if !fi.IsDir() {
			return "", refused(rel, rel[:i]+" is not a directory (symlinked directories are not followed)")
		}
	}
	stack, ok := w.stackFor(rel)
	if !ok || stack.ignored(rel, false) {
		return "", refused(rel, "ignored")
	}
	abs := filepath.Join(w.root, filepath.FromSlash(rel))
	fi, err := os.Lstat(abs)
	switch {
	case err != nil:
		return "", err
	case fi.Mode().IsRegular():
		return rel, nil
	case fi.Mode()&fs.ModeSymlink == 0:
		return "", refused(rel, "not a regular file")
	}
	return w.linkTarget(abs, rel)
}

// linkTarget follows the symlink rel when it leads to a file inside the
// root, as the walk does.
func (w *walker) linkTarget(abs, rel string) (string, error) {
	target, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", refused(rel, reasonDangling)
	}
	if err != nil {
		return "", err
	}
	inner, ok := relUnder(w.root, target)
	if !ok || inner == "" {
		return "", refused(rel, reasonOutsideRoot)
	}
	if hasInternalDir(inner) {
		return "", refused(rel, "symlink into an internal directory")
	}
	return filepath.FromSlash(inner), nil
}

// readRooted reads name inside r, refusing anything but a regular file of
// at most max bytes, and binary content by its first bytes unless parser
// reads a binary format.
func readRooted(r *os.Root, name string, max int64, parser string) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	rel := filepath.ToSlash(name)
	switch {
	case !fi.Mode().IsRegular():
		return nil, refused(rel, "not a regular file")
	case fi.Size() > max:
		return nil, refused(rel, fmt.Sprintf("%s (%d bytes)", reasonTooLarge, fi.Size()))
	}
	s := &scanner{max: max}
	data, err := s.readFile(f, fi.Size(), parser)
	if errors.Is(err, ErrBinary) {
		return nil, refused(rel, reasonBinary)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return data, nil
}
