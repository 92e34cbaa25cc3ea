package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/fsnotify/fsnotify"

	"github.com/autorag/autorag/mirror"
)

// ErrWatchLimit reports that the kernel refused another directory watch
// (Linux: fs.inotify.max_user_watches); Run falls back to polling.
var ErrWatchLimit = errors.New("file watch limit reached")

// tree keeps an fsnotify watch on every directory under the root that a
// scan would enter, and turns events into the relative paths a targeted
// refresh must look at. fsnotify is not recursive: new directories are
// added as they appear, removed or renamed ones dropped.
type tree struct {
	fs    *fsnotify.Watcher
	match *mirror.Matcher
	root  string          // absolute, symlinks resolved (the matcher's)
	dirs  map[string]bool // watched directories, relative ("" is the root)
	add   func(abs string) error
}

func newTree(ctx context.Context, root string) (*tree, error) {
	m, err := mirror.NewMatcher(ctx, root)
	if err != nil {
		return nil, err
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, watchErr(err)
	}
	return &tree{fs: w, match: m, root: m.Root(), dirs: map[string]bool{}, add: w.Add}, nil
}

func (t *tree) close() error {
	t.match.Close()
	return t.fs.Close()
}

// watchErr marks the errors that mean the kernel's watch limit (or, with
// kqueue, the open file limit) was reached.
func watchErr(err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) {
		return fmt.Errorf("%w: %v", ErrWatchLimit, err)
	}
	return err
}

// addTree watches the directory rel and every directory under it that a
// scan would enter. Directories that vanish meanwhile are skipped.
func (t *tree) addTree(ctx context.Context, rel string) error {
	if t.match.Skipped(rel, true) {
		return nil
	}
	abs := t.abs(rel)
	if err := t.add(abs); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil
		}
		return fmt.Errorf("watch %s: %w", abs, watchErr(err))
	}
	t.dirs[rel] = true
	ents, err := os.ReadDir(abs)
	if err != nil {
		return nil // gone or unreadable: the refresh reports what it can't read
	}
	for _, e := range ents {
		if !e.IsDir() { // symlinks to directories are not followed, as in a scan
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := t.addTree(ctx, joinRel(rel, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// rewatch rebuilds the watch set from a walk of the tree: the ignore rules
// are read again, every directory a scan would enter is watched (adding a
// watch again is harmless), and directories no longer found lose theirs.
func (t *tree) rewatch(ctx context.Context) error {
	old := t.dirs
	t.dirs = map[string]bool{}
	t.match.Reset()
	err := t.addTree(ctx, "")
	for d := range old {
		if !t.dirs[d] {
			_ = t.fs.Remove(t.abs(d))
		}
	}
	return err
}

// change is what one event means for the index.
type change struct {
	path   string // relative path to refresh ("" is the whole root)
	ok     bool   // false: nothing to refresh
	reread bool   // an ignore file changed: rules were reloaded
}

// handle interprets one event: it keeps the watch set in step with the
// directories and returns the path whose refresh reflects the event.
func (t *tree) handle(ctx context.Context, ev fsnotify.Event) (change, error) {
	rel, ok := t.match.Rel(ev.Name)
	if !ok || rel == "" {
		return change{}, nil
	}
	if mirror.IsIgnoreFile(rel) {
		return t.ignoreFileChanged(ctx, rel)
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		if t.dropTree(rel) {
			return change{path: rel, ok: true}, nil
		}
	}
	fi, err := os.Lstat(ev.Name)
	isDir := err == nil && fi.IsDir()
	if t.match.Skipped(rel, isDir) {
		return change{}, nil
	}
	if isDir && !t.dirs[rel] {
		if err := t.addTree(ctx, rel); err != nil {
			return change{}, err
		}
	}
	return change{path: rel, ok: true}, nil
}

// ignoreFileChanged reloads the rules and refreshes the ignore file's
// directory, so that newly ignored files leave the index and newly
// unignored ones enter it; directories no longer ignored are watched.
func (t *tree) ignoreFileChanged(ctx context.Context, rel string) (change, error) {
	t.match.Reset()
	dir := path.Dir(rel)
	if dir == "." {
		dir = ""
	}
	if err := t.addTree(ctx, dir); err != nil {
		return change{}, err
	}
	return change{path: dir, ok: true, reread: true}, nil
}

// dropTree forgets the watches of rel and every directory under it, and
// reports whether rel was a watched directory. The kernel drops the watch
// of a removed directory itself; a renamed one keeps reporting under its
// old name unless removed here.
func (t *tree) dropTree(rel string) bool {
	was := t.dirs[rel]
	for d := range t.dirs {
		if d == rel || strings.HasPrefix(d, rel+"/") {
			_ = t.fs.Remove(t.abs(d)) // already gone when the directory was removed
			delete(t.dirs, d)
			was = true
		}
	}
	return was
}

func (t *tree) abs(rel string) string {
	if rel == "" {
		return t.root
	}
	return filepath.Join(t.root, filepath.FromSlash(rel))
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
