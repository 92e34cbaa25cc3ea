package local

import (
	"bytes"
	"context"
	"fmt"
	"sort"

	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
)

var _ backend.DefReader = (*lists)(nil)

// DefsOf reads a chunk's stored definitions and section (rank.DefsOf)
// from its segment, without copying its text: the definition match asks
// it of up to rank.CodeDepth chunks of a query, of which the walk keeps
// a few.
func (l *lists) DefsOf(context.Context) (rank.DefsOf, error) {
	return l.s.defsOf, nil
}

// defsOf reads what the definition match needs of chunk id, through the
// searcher's reader; a reader that is not a scorch snapshot (none is
// today) loads the whole chunk.
func (s *searcher) defsOf(id, path string, ord int) ([]rank.Def, string, error) {
	snap, ok := s.r.(*scorch.IndexSnapshot)
	if !ok {
		r, err := s.load(id, path, ord)
		return r.Defs, r.Section, err
	}
	num, err := s.internalNum(id)
	if err != nil {
		return nil, "", fmt.Errorf("load chunk %s#%d: %w", path, ord, err)
	}
	seg, local := s.segmentOf(snap, num)
	var defs []rank.Def
	var section string
	err = seg.VisitDocument(local, func(field string, _ byte, val []byte, _ []uint64) bool {
		switch field {
		case fieldDefs:
			defs = parseDefs(string(val))
		case fieldMeta:
			section = metaSection(val)
		}
		return true
	})
	if err != nil {
		return nil, "", fmt.Errorf("load chunk %s#%d: %w", path, ord, err)
	}
	return defs, section, nil
}

// internalNum is the internal document number of chunk id: known for the
// chunks the lexical list resolved (externalID), else looked up.
func (s *searcher) internalNum(id string) (uint64, error) {
	if s.nums == nil {
		s.nums = make(map[string]uint64, len(s.ids))
		for n, id := range s.ids {
			s.nums[id] = n
		}
	}
	if n, ok := s.nums[id]; ok {
		return n, nil
	}
	iid, err := s.r.InternalID(id)
	if err != nil {
		return 0, err
	}
	if iid == nil {
		return 0, fmt.Errorf("no such chunk")
	}
	n := iid.Value()
	s.nums[id] = n
	return n, nil
}

// segmentOf is the segment of snap that holds internal document num, and
// num's number in it: the segments' numbers follow one another in their
// order, each segment counting its deleted documents too (as scorch numbers
// them when it opens a snapshot).
func (s *searcher) segmentOf(snap *scorch.IndexSnapshot, num uint64) (*scorch.SegmentSnapshot, uint64) {
	segs := snap.Segments()
	if s.offsets == nil {
		s.offsets = make([]uint64, len(segs))
		var running uint64
		for i, seg := range segs {
			s.offsets[i] = running
			running += seg.Segment().Count()
		}
	}
	i := sort.Search(len(s.offsets), func(i int) bool { return s.offsets[i] > num }) - 1
	return segs[i], num - s.offsets[i]
}

// metaSection is the section of a stored meta value (bleveDoc): its
// third field, when a fourth follows.
func metaSection(meta []byte) string {
	sep := []byte(backend.MetaSep)
	rest := meta
	for range 2 {
		i := bytes.Index(rest, sep)
		if i < 0 {
			return ""
		}
		rest = rest[i+len(sep):]
	}
	i := bytes.Index(rest, sep)
	if i < 0 {
		return ""
	}
	return string(rest[:i])
}
