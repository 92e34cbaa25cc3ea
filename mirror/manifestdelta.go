package mirror

import (
	"slices"
	"strings"
)

// Change is one path whose entry differs between a manifest and the one a
// scan derived from it: Old is the earlier entry (nil: there was none),
// New the scan's (nil: the path is gone).
type Change struct {
	Path     string
	Old, New *Entry
}

// delta is how a scan's manifest differs from the manifest it scanned
// against, found from the paths the scan touched rather than by comparing
// every entry.
type delta struct {
	from, to []Entry  // the entries it relates, as Scan left them
	changes  []Change // sorted by path
}

// ChangesFrom returns how m differs from prev, the manifest Scan derived m
// from: every path whose entry is not the same on both sides, sorted, in
// time proportional to the change. ok is false when m does not know (it
// was not derived from prev by Scan, or either's Entries were replaced
// since); the caller then compares the entries itself. Entries changed in
// place after the scan are not noticed: nobody does that.
func (m *Manifest) ChangesFrom(prev *Manifest) ([]Change, bool) {
	d := m.delta
	if d == nil || !sameSlice(d.from, prev.Entries) || !sameSlice(d.to, m.Entries) {
		return nil, false
	}
	return d.changes, true
}

// sameSlice reports whether a and b are the same slice: same length and,
// when not empty, the same first element.
func sameSlice(a, b []Entry) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// changesOf compares prev and next (both sorted by path) at the given
// paths only, in any order and possibly repeated, and returns the changes
// there. The caller vouches that every other path has equal entries on
// both sides (or none). When the paths are many (a first scan, a large
// change), one walk over both sides is cheaper than sorting and looking
// them up.
func changesOf(prev, next []Entry, paths []string) []Change {
	if len(paths) > (len(prev)+len(next))/16 {
		return changesByWalk(prev, next)
	}
	return changesAt(prev, next, paths)
}

// changesAt compares prev and next at paths only.
func changesAt(prev, next []Entry, paths []string) []Change {
	slices.Sort(paths)
	paths = slices.Compact(paths)
	var out []Change
	for _, p := range paths {
		o, n := entryAt(prev, p), entryAt(next, p)
		if o == nil && n == nil || o != nil && n != nil && *o == *n {
			continue
		}
		out = append(out, Change{Path: p, Old: o, New: n})
	}
	return out
}

// entryAt returns the entry of entries (sorted) at path p, or nil.
func entryAt(entries []Entry, p string) *Entry {
	i, ok := slices.BinarySearchFunc(entries, p, func(e Entry, p string) int { return strings.Compare(e.Path, p) })
	if !ok {
		return nil
	}
	return &entries[i]
}

// upsertsAndRemovals splits changes into the entries to write and the
// paths to remove, as diffEntries returns them.
func upsertsAndRemovals(changes []Change) (upserts []*Entry, removed []string) {
	for _, c := range changes {
		if c.New != nil {
			upserts = append(upserts, c.New)
		} else {
			removed = append(removed, c.Path)
		}
	}
	return upserts, removed
}

// changesByWalk compares every entry of prev and next (both sorted).
func changesByWalk(prev, next []Entry) []Change {
	var out []Change
	i, j := 0, 0
	for i < len(prev) || j < len(next) {
		switch {
		case j == len(next) || i < len(prev) && prev[i].Path < next[j].Path:
			out = append(out, Change{Path: prev[i].Path, Old: &prev[i]})
			i++
		case i == len(prev) || next[j].Path < prev[i].Path:
			out = append(out, Change{Path: next[j].Path, New: &next[j]})
			j++
		default:
			if prev[i] != next[j] {
				out = append(out, Change{Path: next[j].Path, Old: &prev[i], New: &next[j]})
			}
			i++
			j++
		}
	}
	return out
}
