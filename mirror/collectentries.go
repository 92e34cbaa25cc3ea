package mirror

import "github.com/autorag/autorag/fingerprint"

// deadShare is the number of object copies per entry past which
// CollectEntries counts the live objects of every pack (Collect's full
// pass): with each text stored once, a store holding more than twice as
// many copies as the manifest has entries is more than half dead.
const deadShare = 2

// CollectEntries is Collect for the objects the entries use, at a cost that
// follows the packs it merges rather than the entries: while the store
// holds no more than deadShare object copies per entry, dead objects
// cannot take most of it (each live text is stored once), so only the
// packs mergeSet picks are looked at, and of the entries only whether they
// use an object of those packs (one pass, no set of every text), and with
// no more than maxPacks packs nothing is (but the session's pack published
// and the directory swept). Past that share it is Collect's full pass (the share
// counts copies, not bytes: a store of many duplicate texts keeps up to
// deadShare copies per entry before it is). CollectStats.Live is -1 when
// not counted.
func (s *Store) CollectEntries(entries []Entry) (CollectStats, error) {
	return s.collect(func(st *CollectStats) error {
		found, err := s.sweepLocked(st)
		if err != nil || !found {
			return err
		}
		return s.collectEntriesLocked(entries, st)
	})
}

// collectEntriesLocked picks between merging the small packs and the full
// pass. The caller holds wmu and mu, and has swept the directory.
func (s *Store) collectEntriesLocked(entries []Entry, st *CollectStats) error {
	copies := 0
	for _, p := range s.packs {
		copies += p.count
	}
	st.PacksBefore, st.Live = len(s.packs), -1
	switch {
	case copies > deadShare*len(entries):
		keep := make(map[Hash]bool, len(entries))
		for i := range entries {
			keep[entries[i].TextHash] = true
		}
		err := s.collectKeptLocked(keep, st)
		st.Live = s.countLive(keep)
		return err
	case len(s.packs) > maxPacks:
		merge := mergeSet(s.packs)
		if err := s.rewriteLocked(merge, liveIn(merge, entries), st); err != nil {
			return err
		}
	}
	if st.Removed > 0 {
		return fingerprint.SyncDir(s.dir)
	}
	return nil
}

// liveIn returns the objects of packs that entries use.
func liveIn(packs []*pack, entries []Entry) map[Hash]bool {
	live := map[Hash]bool{}
	for _, p := range packs {
		es, _ := p.index() // a damaged pack holds nothing: merged away
		for _, e := range es {
			live[e.hash] = false
		}
	}
	for i := range entries {
		if _, ok := live[entries[i].TextHash]; ok {
			live[entries[i].TextHash] = true
		}
	}
	return live
}
