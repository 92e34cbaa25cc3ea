package mirror

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// Failure reasons reported by Scan (Failure.Reason starts with one of these).
const (
	reasonBinary          = "binary"
	reasonTooLarge        = "too large"
	reasonOutsideRoot     = "symlink outside root"
	reasonDangling        = "dangling symlink"
	reasonPathOutsideRoot = "path outside root"
	// Reasons for a path named in a targeted scan that exists but is not
	// indexed.
	reasonIgnored     = "ignored"
	reasonHidden      = `hidden (a "!NAME" rule in .autoragignore indexes it)`
	reasonInternal    = "inside .git or .autorag"
	reasonNotRegular  = "not a regular file"
	reasonUnsupported = "unsupported file type"
	// Reasons for a symlink whose target the walk would not index.
	reasonLinkInternal = "symlink into .git or .autorag"
	reasonLinkIgnored  = "symlink to an ignored file"
	reasonSymlinkDir   = "path through a symlinked directory (not followed)"
)

// candidate is a file the walk found: not ignored, of a supported type.
type candidate struct {
	rel    string // relative to the root, '/' separated
	target string // for symlinks, the resolved target relative to the root; "" means rel
	size   int64
	mtime  int64
	parser string
}

// walker finds candidates under a root, honouring ignore files and the
// symlink rules. It never reads or stats anything outside the root, except
// to resolve where a symlink points.
type walker struct {
	ctx    context.Context
	tree   *tree  // every open under the root goes through it
	root   string // absolute, symlinks resolved
	given  string // absolute root as the caller named it
	files  []candidate
	failed []Failure
	frames map[string]*ignoreFrame // targeted scans: loaded frames by directory

	pending []pendingStat // statFiles' buffer, reused from directory to directory
}

func newWalker(ctx context.Context, root string) (*walker, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", root, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", root, err)
	}
	fi, err := os.Stat(resolved)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("scan %s: not a directory", root)
	}
	t, err := openTree(resolved)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", root, err)
	}
	return &walker{ctx: ctx, tree: t, root: resolved, given: abs, frames: make(map[string]*ignoreFrame)}, nil
}

// close releases the root's descriptors.
func (w *walker) close() { w.tree.close() }

func (w *walker) fail(rel, reason string) {
	w.failed = append(w.failed, Failure{Path: rel, Reason: reason})
}

// walkAll walks the whole tree. An unreadable root is an error (scanning
// nothing would delete every entry); unreadable subdirectories are failures.
func (w *walker) walkAll() error {
	d, entries, err := w.openDir("")
	if err != nil {
		return fmt.Errorf("scan %s: %w", w.root, err)
	}
	return w.walkEntries(d, w.root, "", entries, nil)
}

// walkDir walks the directory rel (at abs) with the rules of its ancestors.
func (w *walker) walkDir(abs, rel string, stack ignoreStack) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	d, entries, err := w.openDir(rel)
	if err != nil {
		w.fail(rel, "read dir: "+errText(err))
		return nil
	}
	return w.walkEntries(d, abs, rel, entries, stack)
}

// walkEntries visits the entries of the open directory d (in the order
// the file system listed them) and closes d. The regular files come first
// and are stat'ed together (statFiles): on a machine where a stat costs
// microseconds, stat'ing a large directory on every core roughly halves
// the no-op walk. Subdirectories and symlinks follow, once d is closed.
func (w *walker) walkEntries(d *os.File, abs, rel string, entries []fs.DirEntry, stack ignoreStack) error {
	if f := w.loadFrame(rel, ignoreFilesIn(entries)); f != nil {
		stack = append(stack, f)
	}
	first := len(w.files)
	pending := w.pending[:0]
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || isInternalName(name) {
			continue
		}
		childRel := joinRel(rel, name)
		if stack.ignored(childRel, false) {
			continue
		}
		if parser, ok := ParserFor(childRel); ok {
			pending = append(pending, pendingStat{entry: e})
			w.add(childRel, "", 0, 0, parser)
		}
	}
	w.statFiles(d, first, pending)
	w.pending = pending // reused by the next directory
	_ = d.Close()
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() || isInternalName(name) {
			continue
		}
		if err := w.visit(e, abs+string(filepath.Separator)+name, joinRel(rel, name), stack); err != nil {
			return err
		}
	}
	return nil
}

// pendingStat is a regular file of the directory being walked whose size
// and mtime are still to be read.
type pendingStat struct {
	entry fs.DirEntry
	err   error
}

// parallelStatMin is the directory size from which stats run in parallel.
const parallelStatMin = 256

// statFiles fills in the size and mtime of the files w.files[first:],
// which pending describes one for one, in the open directory d, and drops
// (in order) those that vanished or failed.
func (w *walker) statFiles(d *os.File, first int, pending []pendingStat) {
	files := w.files[first:]
	stat := func(i int) {
		c := &files[i]
		c.size, c.mtime, pending[i].err = statEntry(d, pending[i].entry)
	}
	workers := min(runtime.GOMAXPROCS(0)*2, len(pending)/parallelStatMin+1)
	if workers <= 1 {
		for i := range pending {
			stat(i)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for i := next.Add(1) - 1; i < int64(len(pending)); i = next.Add(1) - 1 {
					stat(int(i))
				}
			})
		}
		wg.Wait()
	}
	kept := first
	for i := range pending {
		if err := pending[i].err; err != nil {
			w.statFailed(files[i].rel, err)
			continue
		}
		w.files[kept] = files[i]
		kept++
	}
	w.files = w.files[:kept]
}

// visit handles a directory entry that is not a regular file.
func (w *walker) visit(e fs.DirEntry, abs, rel string, stack ignoreStack) error {
	t := e.Type()
	switch {
	case t.IsDir():
		if stack.ignored(rel, true) {
			return nil
		}
		return w.walkDir(abs, rel, stack)
	case t&fs.ModeSymlink != 0:
		if !stack.ignored(rel, false) {
			w.symlink(abs, rel)
		}
	}
	// Devices, sockets and FIFOs are never read.
	return nil
}

func (w *walker) add(rel, target string, size, mtime int64, parser string) {
	w.files = append(w.files, candidate{rel: rel, target: target, size: size, mtime: mtime, parser: parser})
}

// statFailed records a stat error; a file that vanished is simply gone.
func (w *walker) statFailed(rel string, err error) {
	if !errors.Is(err, fs.ErrNotExist) {
		w.fail(rel, "stat: "+errText(err))
	}
}

// symlink indexes a link to a regular file inside the root under the link's
// own path, when the walk would index the file it leads to (not inside
// .git or .autorag, not ignored). Links to directories are not followed;
// links leaving the root or pointing nowhere are reported. The target is
// recorded by its resolved path and later opened through the tree, which
// follows no symlink at all.
func (w *walker) symlink(abs, rel string) {
	target, err := filepath.EvalSymlinks(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		w.fail(rel, reasonDangling)
		return
	case err != nil:
		w.fail(rel, "symlink: "+errText(err))
		return
	}
	inner, ok := relUnder(w.root, target)
	if !ok || inner == "" {
		w.fail(rel, reasonOutsideRoot)
		return
	}
	if hasInternalDir(inner) {
		w.fail(rel, reasonLinkInternal)
		return
	}
	fi, err := w.tree.lstat(inner)
	if err != nil {
		w.statFailed(rel, err)
		return
	}
	if !fi.Mode().IsRegular() {
		return
	}
	if stack, ok := w.stackFor(inner); !ok || stack.ignored(inner, false) {
		w.fail(rel, reasonLinkIgnored)
		return
	}
	if parser, ok := ParserFor(rel); ok {
		w.add(rel, inner, fi.Size(), fi.ModTime().UnixNano(), parser)
	}
}

// ignoreFilesIn returns the names of the ignore files among entries.
func ignoreFilesIn(entries []fs.DirEntry) []string {
	var names []string
	for _, e := range entries {
		if ignoreFileKind(e.Name()) >= 0 && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// maxIgnoreFile is the largest ignore file read; a larger one is reported
// and its rules are not applied.
const maxIgnoreFile = 4 << 20

// loadFrame reads the ignore files of the given names in the directory rel
// (and, at the root, .git/info/exclude). It returns nil when the directory
// has no rules. An ignore file that is not a regular file (a FIFO, say) or
// cannot be read is reported, never waited for.
func (w *walker) loadFrame(rel string, names []string) *ignoreFrame {
	var f *ignoreFrame
	set := func(kind int, data []byte) {
		if rs := parseRules(data); len(rs) > 0 {
			if f == nil {
				f = &ignoreFrame{prefix: rel}
			}
			f.sets[kind] = rs
		}
	}
	read := func(name string) ([]byte, bool) {
		p := joinRel(rel, name)
		data, err := w.tree.readSmall(p, maxIgnoreFile)
		switch {
		case err == nil:
			return data, true
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) && !errors.Is(err, syscall.EISDIR):
			w.fail(p, "ignore file: "+errText(err))
		}
		return nil, false
	}
	for _, name := range names {
		if data, ok := read(name); ok {
			set(ignoreFileKind(name), data)
		}
	}
	if rel == "" {
		if data, ok := read(".git/info/exclude"); ok {
			set(kindExclude, data)
		}
	}
	return f
}

// openDir opens the directory rel (the caller closes it) and lists it in
// the order the file system returns. The walk does not sort: Scan looks
// candidates up by path and sorts only when something changed.
func (w *walker) openDir(rel string) (*os.File, []fs.DirEntry, error) {
	f, err := w.tree.openDir(rel)
	if err != nil {
		return nil, nil, err
	}
	entries, err := f.ReadDir(-1)
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, entries, nil
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// relUnder returns target relative to root ('/' separated) when target is
// root or inside it.
func relUnder(root, target string) (string, bool) {
	if target == root {
		return "", true
	}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	rest, ok := strings.CutPrefix(target, prefix)
	if !ok {
		return "", false
	}
	return filepath.ToSlash(rest), true
}

// ignoredReason says why an ignored path is left out: hidden when a
// component of it is, else ignored by a rule.
func ignoredReason(rel string) string {
	if hasHiddenPart(rel) {
		return reasonHidden
	}
	return reasonIgnored
}

// isInternalName reports whether a directory entry is .git or .autorag,
// which are never indexed nor entered. The comparison ignores case: on a
// case-insensitive file system (macOS and Windows by default, ext4 and
// tmpfs directories with casefold) .GIT and .Autorag are the same
// directories, and case sensitivity can differ from directory to
// directory, so telling them apart would cost a probe per directory; on a
// case-sensitive one a directory named .GIT is not indexed either.
func isInternalName(name string) bool {
	return strings.EqualFold(name, ".git") || strings.EqualFold(name, ".autorag")
}

// hasInternalDir reports whether a relative path passes through .git or
// .autorag.
func hasInternalDir(rel string) bool {
	for part := range strings.SplitSeq(rel, "/") {
		if isInternalName(part) {
			return true
		}
	}
	return false
}

// errText renders an error without the path os errors repeat.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
