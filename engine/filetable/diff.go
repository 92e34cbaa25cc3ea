package filetable

import (
	"errors"
	"fmt"

	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/mirror"
)

// ChangeSet is what a new generation changes relative to its base.
type ChangeSet struct {
	Deletes                           []string       // chunk IDs to remove
	Index                             []mirror.Entry // files whose chunks are (re)inserted
	Removed                           []string       // paths of the base the manifest no longer has
	Added, Modified, Deleted, Renamed int
}

// Diff compares the base generation's file table with the manifest.
// A path present on both sides with a different text hash is modified; a
// deleted path whose text hash reappears under an added path is a rename.
// It walks both sides once and copies only what changed.
func Diff(prev Table, man *mirror.Manifest) ChangeSet {
	var cs ChangeSet
	gone := map[mirror.Hash]int{} // text hashes of the deleted paths
	var added []mirror.Hash       // text hashes of the added paths, in order
	i := 0
	for _, e := range man.Entries {
		for i < len(prev) && prev[i].Path < e.Path {
			cs.remove(prev[i], gone)
			i++
		}
		if i < len(prev) && prev[i].Path == e.Path {
			if prev[i].TextHash != e.TextHash {
				cs.drop(prev[i])
				cs.Index = append(cs.Index, e)
				cs.Modified++
			}
			i++
			continue
		}
		cs.Index = append(cs.Index, e)
		added = append(added, e.TextHash)
	}
	for ; i < len(prev); i++ {
		cs.remove(prev[i], gone)
	}
	cs.pairRenames(added, gone)
	return cs
}

// ErrMismatch reports a table that does not hold what DiffChanges was
// told it holds: the caller compares the whole table instead.
var ErrMismatch = errors.New("file table does not match the manifest it was built from")

// DiffChanges is Diff for a manifest that differs from the one the table
// was built from only at changes (mirror.Manifest.ChangesFrom): the table
// holds the path and text hash of every change's Old entry, no record of
// a path without one, and the other paths as the manifest has them. Only
// the changed paths are looked up, so its cost follows the change, not the
// table; the result is Diff's. A lookup that contradicts the changes
// fails with ErrMismatch.
func DiffChanges(l *Loaded, changes []mirror.Change) (ChangeSet, error) {
	var cs ChangeSet
	gone := map[mirror.Hash]int{}
	var added []mirror.Hash
	for _, c := range changes {
		r, ok, err := l.Lookup(c.Path)
		if err != nil {
			return ChangeSet{}, err
		}
		if ok != (c.Old != nil) || ok && r.TextHash != c.Old.TextHash {
			return ChangeSet{}, fmt.Errorf("%s: %w", c.Path, ErrMismatch)
		}
		switch {
		case c.New == nil:
			if ok {
				cs.remove(r, gone)
			}
		case !ok:
			cs.Index = append(cs.Index, *c.New)
			added = append(added, c.New.TextHash)
		case r.TextHash != c.New.TextHash:
			cs.drop(r)
			cs.Index = append(cs.Index, *c.New)
			cs.Modified++
		}
	}
	cs.pairRenames(added, gone)
	return cs, nil
}

// pairRenames pairs added paths with deleted paths of the same text and
// settles the counts.
func (cs *ChangeSet) pairRenames(added []mirror.Hash, gone map[mirror.Hash]int) {
	for _, h := range added {
		if gone[h] > 0 {
			gone[h]--
			cs.Renamed++
		}
	}
	cs.Added = len(added) - cs.Renamed
	cs.Deleted -= cs.Renamed
}

func (cs *ChangeSet) drop(r Record) {
	for o := 0; o < r.Chunks; o++ {
		cs.Deletes = append(cs.Deletes, record.ChunkID(r.Path, o))
	}
}

// remove records a base file that the manifest no longer has.
func (cs *ChangeSet) remove(r Record, gone map[mirror.Hash]int) {
	cs.drop(r)
	cs.Removed = append(cs.Removed, r.Path)
	gone[r.TextHash]++
	cs.Deleted++
}

// LoadDiff returns the table of the generation in dir and the change set
// from it to man. When known, man differs from the manifest the table was
// built from only at changes (mirror.Manifest.ChangesFrom): the table is
// opened for lookups (Open, with counts) and diffed at those paths only
// (DiffChanges). Otherwise, or when the table has no index or does not
// bear the changes out, it is read whole (Load) and diffed (Diff).
func LoadDiff(dir string, man *mirror.Manifest, changes []mirror.Change, known bool, counts Counts) (*Loaded, ChangeSet, error) {
	if known {
		if l, err := Open(dir, counts); err == nil {
			cs, err := DiffChanges(l, changes)
			if err == nil {
				return l, cs, nil
			}
			l.Close()
		}
	}
	l, err := Load(dir)
	if err != nil {
		return nil, ChangeSet{}, err
	}
	return l, Diff(l.Table, man), nil
}
