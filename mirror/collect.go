package mirror

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/autorag/autorag/fingerprint"
)

// maxPacks is how many packs Collect tolerates before merging small ones,
// so that incremental refreshes, each adding a small pack, leave a bounded
// number of files to open.
const maxPacks = 8

// CollectStats reports what Collect did.
type CollectStats struct {
	PacksBefore    int   // readable packs before the collection
	PacksAfter     int   // packs after it
	Objects        int   // objects in the remaining packs
	Live           int   // copies of objects of keep in the store (a copy in two packs counts twice)
	Rewritten      bool  // live objects were copied into a new pack
	Removed        int   // files and directories removed
	BytesReclaimed int64 // bytes of removed files less those of a new pack (old-layout directories not counted)
}

// CollectDue reports whether Collect has more to do than count objects:
// more than maxPacks packs (one-file refreshes add one each), objects Put
// since the last Sync, or files that only Collect removes (temporary
// files, damaged packs, the old layout's directories) in the directory as
// listed. A caller that keeps the cost of a refresh in proportion to its
// change collects only then: the dead objects that wait meanwhile cost
// space, never correctness, and the pack limit bounds them.
func (s *Store) CollectDue() bool {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.sess != nil {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded {
		s.loadLocked()
	}
	return s.untidy || s.loadErr != nil || len(s.packs) > maxPacks || slices.ContainsFunc(s.packs, isBad)
}

// isBad reports a pack whose index was found damaged when read.
func isBad(p *pack) bool { return p.bad.Load() }

// Collect removes what the store holds beyond the objects in keep. It first
// publishes the session's pack, then:
//
//   - removes every pack with no object in keep;
//   - rewrites the whole store (copies the intact live objects into one new
//     pack, publishes it, then removes the old packs) when dead objects
//     take more than half its bytes;
//   - otherwise, when more than maxPacks packs remain, merges the small
//     ones (see mergeSet): a large pack is not copied again because a
//     few one-file refreshes added packs beside it;
//   - removes temporary files, packs that fail their checks, and the
//     fan-out directories of the old one-file-per-object layout.
//
// Other files are left alone. The caller must hold the refresh lock: a
// temporary file of another writer would be removed too.
func (s *Store) Collect(keep map[Hash]bool) (CollectStats, error) {
	return s.collect(func(st *CollectStats) error {
		err := s.collectLocked(keep, st)
		st.Live = s.countLive(keep)
		return err
	})
}

// collect runs one collection's work on the synced, loaded store under
// both locks, and fills in what every collection reports after it.
func (s *Store) collect(work func(st *CollectStats) error) (CollectStats, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	var st CollectStats
	if err := s.syncLocked(); err != nil {
		return st, fmt.Errorf("collect mirror store: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded {
		s.loadLocked()
	}
	err := work(&st)
	if err == nil {
		s.untidy = false
	}
	st.PacksAfter = len(s.packs)
	for _, p := range s.packs {
		st.Objects += p.count
	}
	if err != nil {
		return st, fmt.Errorf("collect mirror store: %w", err)
	}
	return st, nil
}

// collectLocked does Collect's work. The caller holds wmu and mu.
func (s *Store) collectLocked(keep map[Hash]bool, st *CollectStats) error {
	found, err := s.sweepLocked(st)
	if err != nil || !found {
		return err
	}
	return s.collectKeptLocked(keep, st)
}

// collectKeptLocked is Collect's work after the sweep: the packs' dead
// bytes counted, dead packs removed, then a rewrite or a merge when due.
// The caller holds wmu and mu.
func (s *Store) collectKeptLocked(keep map[Hash]bool, st *CollectStats) error {
	st.PacksBefore = len(s.packs)
	var kept []*pack
	var total, dead int64
	for _, p := range s.packs {
		es, err := p.index()
		if err != nil && !errors.Is(err, ErrCorrupt) {
			return fmt.Errorf("read pack %s: %w", p.name, err)
		}
		d := deadBytes(es, keep)
		if d < 0 || err != nil {
			if err := s.removePack(p, st); err != nil {
				return err
			}
			continue
		}
		kept = append(kept, p)
		total, dead = total+p.size, dead+d
	}
	s.packs = kept
	var merge []*pack
	switch {
	case len(kept) > 0 && dead > total/2:
		merge = kept
	case len(kept) > maxPacks:
		merge = mergeSet(kept)
	}
	if len(merge) > 0 {
		if err := s.rewriteLocked(merge, keep, st); err != nil {
			return err
		}
	}
	if st.Removed > 0 {
		return fingerprint.SyncDir(s.dir)
	}
	return nil
}

// deadBytes returns how many bytes of a pack of entries belong to objects
// not in keep (records and index entries), or -1 when it holds no object in
// keep.
func deadBytes(entries []packEntry, keep map[Hash]bool) int64 {
	var dead int64
	live := false
	for _, e := range entries {
		if keep[e.hash] {
			live = true
		} else {
			dead += e.recordLen() + int64(packEntryLen)
		}
	}
	if !live {
		return -1
	}
	return dead
}

// sweepLocked lists the store directory and removes temporary files,
// old-layout fan-out directories and packs that fail their checks (or whose
// index failed them since they were opened); a valid pack published since
// the packs were loaded is adopted. found is false when the directory does
// not exist. The caller holds wmu and mu.
func (s *Store) sweepLocked(st *CollectStats) (found bool, err error) {
	if err := s.removeBadLocked(st); err != nil {
		return true, err
	}
	ents, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	open := make(map[string]bool, len(s.packs))
	for _, p := range s.packs {
		open[p.name] = true
	}
	for _, e := range ents {
		if err := s.sweepEntry(e, open, st); err != nil {
			return true, err
		}
	}
	return true, nil
}

// sweepEntry handles one entry of the store directory for sweepLocked.
func (s *Store) sweepEntry(e fs.DirEntry, open map[string]bool, st *CollectStats) error {
	name := e.Name()
	path := filepath.Join(s.dir, name)
	switch {
	case strings.HasPrefix(name, tempPrefix) && !e.IsDir():
		return s.removeFile(path, st)
	case isFanout(name) && e.IsDir():
		if err := os.RemoveAll(path); err != nil {
			return err
		}
		st.Removed++
		return nil
	case isPackName(name) && e.Type().IsRegular() && !open[name]:
		p, err := openPack(path, name)
		if errors.Is(err, ErrCorrupt) {
			return s.removeFile(path, st)
		}
		if err != nil {
			return err
		}
		s.packs = append(s.packs, p)
	}
	return nil
}

// removeBadLocked removes the packs whose index was found damaged since
// they were opened. The caller holds wmu and mu.
func (s *Store) removeBadLocked(st *CollectStats) error {
	var err error
	s.packs = slices.DeleteFunc(s.packs, func(p *pack) bool {
		if err != nil || !isBad(p) {
			return false
		}
		err = s.removePack(p, st)
		return err == nil
	})
	return err
}

// removeFile removes path, counting it and its size in st.
func (s *Store) removeFile(path string, st *CollectStats) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	st.Removed++
	st.BytesReclaimed += fi.Size()
	return nil
}

// removePack closes and removes pack p (not dropping it from s.packs).
func (s *Store) removePack(p *pack, st *CollectStats) error {
	_ = p.f.Close()
	if err := os.Remove(filepath.Join(s.dir, p.name)); err != nil {
		return fmt.Errorf("remove pack %s: %w", p.name, err)
	}
	st.Removed++
	st.BytesReclaimed += p.size
	return nil
}

// rewriteLocked copies every intact object of keep into one new pack,
// publishes it and removes the old packs. Damaged copies are dropped (the
// engine re-parses their sources). The caller holds wmu and mu.
func (s *Store) rewriteLocked(merge []*pack, keep map[Hash]bool, st *CollectStats) error {
	w, err := newPackWriter(s.dir)
	if err != nil {
		return err
	}
	copied, err := copyLive(w, merge, keep)
	if err != nil {
		_ = w.abort()
		return err
	}
	var fresh *pack
	if copied > 0 {
		if fresh, err = w.finish(s.dir); fresh == nil {
			return err
		}
		st.BytesReclaimed -= fresh.size
	} else if err := w.abort(); err != nil {
		return err
	}
	old := slices.Clone(merge) // merge may share s.packs's array
	s.packs = slices.DeleteFunc(s.packs, func(p *pack) bool { return slices.Contains(old, p) })
	if fresh != nil {
		s.packs = append(s.packs, fresh)
	}
	st.Rewritten = true
	for i, p := range old {
		if err := s.removePack(p, st); err != nil {
			s.packs = append(s.packs, old[i+1:]...) // still open and readable
			return err
		}
	}
	return err // a failed directory fsync of the new pack, if any
}

// mergeSet picks the packs to merge when there are too many: the smallest
// ones, up to the first that is larger than twice all smaller packs
// together. A large base pack and the medium packs of earlier merges thus
// stay as they are, and every object is copied O(log n) times over a
// store's life instead of on every merge. When no pack is small enough by
// that rule (sizes in a steep progression), the smallest ones are merged
// down to maxPacks/2 packs.
func mergeSet(packs []*pack) []*pack {
	bySize := slices.Clone(packs)
	slices.SortFunc(bySize, func(a, b *pack) int { return cmp.Compare(a.size, b.size) })
	var merge []*pack
	var smaller int64
	for _, p := range bySize {
		if len(merge) > 0 && p.size > 2*smaller {
			break
		}
		merge = append(merge, p)
		smaller += p.size
	}
	if len(merge) < 2 {
		merge = bySize[:len(bySize)-maxPacks/2+1]
	}
	return merge
}

// copyLive appends to w the first intact copy of every object of keep held
// by packs and returns how many it copied.
func copyLive(w *packWriter, packs []*pack, keep map[Hash]bool) (int, error) {
	n := 0
	for _, p := range packs {
		es, err := p.index()
		if err != nil && !errors.Is(err, ErrCorrupt) {
			return n, fmt.Errorf("read pack %s: %w", p.name, err)
		}
		for _, e := range es { // none in a damaged pack: its objects are lost
			if _, done := w.lookup(e.hash); done || !keep[e.hash] {
				continue
			}
			b, err := readRecord(p.f, e, p.plain)
			if errors.Is(err, ErrCorrupt) {
				continue
			}
			if err != nil {
				return n, fmt.Errorf("read pack %s: %w", p.name, err)
			}
			if err := w.add(e.hash, b); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// countLive counts the copies of objects of keep in the packs (a map of
// the distinct ones cost 2-3 ms at 16,000 objects, for a statistic). The
// caller holds mu.
func (s *Store) countLive(keep map[Hash]bool) int {
	n := 0
	for _, p := range s.packs {
		es, _ := p.index() // a damaged pack holds nothing
		for _, e := range es {
			if keep[e.hash] {
				n++
			}
		}
	}
	return n
}
