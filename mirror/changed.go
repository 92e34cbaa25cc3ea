package mirror

import (
	"context"
	"errors"
	"io/fs"
)

// Changed reports whether a scan of root would change prev: a file added,
// removed, or whose bytes differ from its entry. It writes nothing and
// parses nothing, and it costs what a no-op refresh's scan costs (one walk
// of the tree, stat only) plus one read for each file whose size or mtime
// differs from its entry (to tell a touch from an edit) and the first
// 8 KiB of each file the manifest lacks (to tell binary files, which are
// never entries, from new ones). A file whose bytes changed but whose text
// did not (re-encoded, say) is reported as changed. A file whose parse
// failure failures remembers, with the size, mtime and parser it still
// has, is not a change: a scan would report it failed again and leave
// the manifest as it is (so stale agrees with status and refresh).
func Changed(ctx context.Context, root string, prev *Manifest, maxFileSize int64, failures *FailMemo) (bool, error) {
	if maxFileSize <= 0 {
		maxFileSize = DefaultMaxFileSize
	}
	w, err := newWalker(ctx, root)
	if err != nil {
		return false, err
	}
	defer w.close()
	if err := w.walkAll(); err != nil {
		return false, err
	}
	s := &scanner{ctx: ctx, tree: w.tree, prev: prev, max: maxFileSize, ocr: &ocrState{any: true}}
	idx := pathIndex(prev)
	found := 0
	for i := range w.files {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		c := &w.files[i]
		j, known := idx[c.rel]
		if known {
			found++
		}
		if c.size > maxFileSize {
			if known {
				return true, nil // the entry will be dropped
			}
			continue
		}
		if known && s.statSkip(c, &prev.Entries[j]) {
			continue
		}
		if _, failed := failures.lookup(c, s.accepts); failed && !known {
			continue
		}
		if s.differs(c, prev, int(j), known) {
			return true, nil
		}
	}
	return found != len(prev.Entries), nil
}

// differs reads a candidate whose stat does not match its entry (or that
// has none) and reports whether a scan would change the manifest for it.
func (s *scanner) differs(c *candidate, prev *Manifest, j int, known bool) bool {
	data, err := s.read(c)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return known // removed since the walk
	case errors.Is(err, ErrBinary), err != nil:
		return known // a failure: never an entry
	case !known:
		return true
	}
	e := &prev.Entries[j]
	return e.RawHash != HashBytes(data) || !s.accepts(c, e.Parser)
}
