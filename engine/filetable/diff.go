package filetable

import (
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
	// Pair added paths with deleted paths of the same text.
	for _, h := range added {
		if gone[h] > 0 {
			gone[h]--
			cs.Renamed++
		}
	}
	cs.Added = len(added) - cs.Renamed
	cs.Deleted -= cs.Renamed
	return cs
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
