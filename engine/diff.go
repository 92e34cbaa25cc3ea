package engine

import (
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/mirror"
)

// changeSet is what a new generation changes relative to its base.
type changeSet struct {
	deletes                           []string       // chunk IDs to remove
	index                             []mirror.Entry // files whose chunks are (re)inserted
	keep                              fileTable      // records carried over unchanged
	added, modified, deleted, renamed int
}

// diffFiles compares the base generation's file table with the manifest.
// A path present on both sides with a different text hash is modified; a
// deleted path whose text hash reappears under an added path is a rename.
func diffFiles(prev fileTable, man *mirror.Manifest) changeSet {
	var cs changeSet
	gone := map[mirror.Hash]int{} // text hashes of the deleted paths
	var added []mirror.Hash       // text hashes of the added paths, in order
	i := 0
	for _, e := range man.Entries {
		for i < len(prev) && prev[i].Path < e.Path {
			cs.remove(prev[i], gone)
			i++
		}
		if i < len(prev) && prev[i].Path == e.Path {
			if prev[i].TextHash == e.TextHash {
				cs.keep = append(cs.keep, prev[i])
			} else {
				cs.drop(prev[i])
				cs.index = append(cs.index, e)
				cs.modified++
			}
			i++
			continue
		}
		cs.index = append(cs.index, e)
		added = append(added, e.TextHash)
	}
	for ; i < len(prev); i++ {
		cs.remove(prev[i], gone)
	}
	// Pair added paths with deleted paths of the same text.
	for _, h := range added {
		if gone[h] > 0 {
			gone[h]--
			cs.renamed++
		}
	}
	cs.added = len(added) - cs.renamed
	cs.deleted -= cs.renamed
	return cs
}

func (cs *changeSet) drop(r fileRecord) {
	for o := 0; o < r.Chunks; o++ {
		cs.deletes = append(cs.deletes, record.ChunkID(r.Path, o))
	}
}

// remove records a base file that the manifest no longer has.
func (cs *changeSet) remove(r fileRecord, gone map[mirror.Hash]int) {
	cs.drop(r)
	gone[r.TextHash]++
	cs.deleted++
}
