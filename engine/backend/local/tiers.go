package local

// Tiered postings: a term's postings in an open generation, partitioned by
// chunk length and term frequency into cells, for prune.TopKTiered. A
// generation is opened read-only and never changes, so a term's tiers are
// built once from its postings, the second time a query of the process
// uses the term (a one-shot query keeps MaxScore's cost), and kept for the
// life of the State within a memory budget. Nothing is stored with the
// index.

import (
	"context"
	"math"
	"math/bits"
	"sync"

	"github.com/autorag/autorag/engine/prune"
)

// termTiers is one term's postings (live chunks; those of its languages
// for a scoped term) in memory and in cells.
type termTiers struct {
	df      uint64       // the idf's document count
	code    []uint8      // per document number: 1 + its tfClass, 0 without the term
	buckets [][]tierCell // by lengthBucket
	bytes   int

	mu    sync.Mutex // guards price, the last query's priced cells
	price struct {
		m       bm25
		idf     float64
		buckets [][]prune.Cell
	}
}

// tierCell is the documents of one length bucket and frequency class, with
// the largest frequency and smallest length among them: the cell's weight
// bound is the weight of that pair.
type tierCell struct {
	docs, tf, dl []uint32
	class        uint8
	maxTF, minDL uint32
}

// lengthBucket is exact below 8 and splits each power of two above into 4
// buckets, so that lengths in one bucket differ by less than a quarter
// (finer buckets tighten the bounds but split the work into more walks;
// 2, 4 and 8 per power of two measured alike at 16,000 documents).
func lengthBucket(dl uint32) int {
	shift := bits.Len32(dl) - 1 - lengthSubBits
	if shift <= 0 {
		return int(dl)
	}
	return shift<<lengthSubBits + int(dl>>shift)
}

const lengthSubBits = 2

// tfClass is 1, 2, 3, 4-7 or 8 and more.
func tfClass(tf uint32) int {
	switch {
	case tf <= 3:
		return int(tf) - 1
	case tf < 8:
		return 3
	}
	return 4
}

const tfClasses = 5

// buildTiers partitions postings (increasing document numbers, tf ≥ 1),
// or reports that they do not fit 32 bits.
func buildTiers(postings []posting, df uint64) (*termTiers, bool) {
	n := len(postings)
	tt := &termTiers{df: df}
	var cells [][tfClasses]tierCell
	for _, p := range postings {
		dl := lengthFromNorm(p.norm)
		if p.num >= math.MaxUint32 || p.tf > math.MaxUint32 || p.tf == 0 || dl < 0 || dl > math.MaxUint32 {
			return nil, false
		}
		d, tf, l := uint32(p.num), uint32(p.tf), uint32(dl)
		j := lengthBucket(l)
		for len(cells) <= j {
			cells = append(cells, [tfClasses]tierCell{})
		}
		c := &cells[j][tfClass(tf)]
		if len(c.docs) == 0 || l < c.minDL {
			c.minDL = l
		}
		c.maxTF = max(c.maxTF, tf)
		c.docs, c.tf, c.dl = append(c.docs, d), append(c.tf, tf), append(c.dl, l)
	}
	if n > 0 {
		tt.code = make([]uint8, postings[n-1].num+1)
	}
	tt.bytes = 12*n + len(tt.code)
	tt.buckets = make([][]tierCell, len(cells))
	for j := range cells {
		for class, c := range cells[j] {
			if len(c.docs) == 0 {
				continue
			}
			c.class = uint8(class + 1)
			for _, d := range c.docs {
				tt.code[d] = c.class
			}
			tt.buckets[j] = append(tt.buckets[j], c)
		}
	}
	return tt, true
}

// tierKey names a term's tiers: the term and its languages.
type tierKey struct {
	term  string
	langs uint64
}

// tierCache is a State's tiers, built from a term's second use on, up to
// a budget of bytes; past it the cache starts over.
type tierCache struct {
	mu       sync.Mutex
	uses     map[tierKey]int
	tiers    map[tierKey]*termTiers
	bytes    int
	budget   int
	buildAt  int // the use that builds a term's tiers
	maxTerms int // queries of more terms use MaxScore
}

// tierBudget bounds a State's tiers: 12 bytes a posting and a byte a
// chunk, so 128 MiB hold the tiers of some 80 broad terms at 100,000
// documents (300,000 chunks, 84,500 postings a term).
const tierBudget = 128 << 20

// maxUses bounds the terms whose uses are counted; past it the counts
// start over.
const maxUses = 1 << 16

func newTierCache(buildAt int) *tierCache {
	return &tierCache{uses: map[tierKey]int{}, tiers: map[tierKey]*termTiers{}, budget: tierBudget, buildAt: buildAt, maxTerms: 6}
}

// lookup returns key's tiers, and counts a use of it; build reports that
// this use is the one to build them.
func (c *tierCache) lookup(key tierKey) (tt *termTiers, build bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if tt := c.tiers[key]; tt != nil {
		return tt, false
	}
	if len(c.uses) > maxUses {
		c.uses = map[tierKey]int{}
	}
	c.uses[key]++
	return nil, c.uses[key] >= c.buildAt
}

func (c *tierCache) store(key tierKey, tt *termTiers) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tiers[key] != nil {
		return
	}
	if c.bytes+tt.bytes > c.budget {
		c.tiers, c.bytes = map[tierKey]*termTiers{}, 0
	}
	c.tiers[key] = tt
	c.bytes += tt.bytes
}

// readTiers reads qt's postings and builds its tiers.
func (s *searcher) readTiers(ctx context.Context, qt queryTerm) (*termTiers, bool, error) {
	if qt.langs != allLangs {
		docs, _, _, _, err := s.scopedPostings(ctx, qt, nil)
		if err != nil {
			return nil, false, err
		}
		tt, ok := buildTiers(docs, uint64(len(docs)))
		return tt, ok, nil
	}
	p, err := openPostings(ctx, s.r, fieldBody, qt.term, true, "postings of")
	if err != nil {
		return nil, false, err
	}
	defer p.close()
	docs := make([]posting, 0, p.count())
	for {
		d, err := p.next(ctx)
		if err != nil {
			return nil, false, err
		}
		if d == nil {
			break
		}
		docs = append(docs, posting{num: internalNum(d.ID), tf: d.Freq, norm: d.Norm})
	}
	tt, ok := buildTiers(docs, p.count())
	return tt, ok, nil
}
