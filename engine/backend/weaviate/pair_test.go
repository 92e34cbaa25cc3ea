package weaviate

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// state is a corpus as a map from chunk id to object.
type state map[string]Object

func stateOf(objs []Object) state {
	s := state{}
	for _, o := range objs {
		s[o.ChunkID] = o
	}
	return s
}

func (s state) apply(ch Change) state {
	out := state{}
	for k, v := range s {
		out[k] = v
	}
	for _, id := range ch.Deletes {
		delete(out, id)
	}
	for _, o := range ch.Upserts {
		out[o.ChunkID] = o
	}
	return out
}

func (s state) lines() []string {
	var l []string
	for _, o := range s {
		l = append(l, fmt.Sprintf("%s|%s|%s|%v", o.ChunkID, o.Tokens, o.Meta, len(o.Vector) == dim))
	}
	sort.Strings(l)
	return l
}

// edit is a change of base: texts of n chunks rewritten, n deleted, n added.
func edit(base []Object, n int, tag string) Change {
	var ch Change
	for i := 0; i < n; i++ {
		o := base[i]
		ch.Upserts = append(ch.Upserts, object(o.ChunkID, "edited "+tag+" "+o.Text))
		ch.Deletes = append(ch.Deletes, base[len(base)-1-i].ChunkID)
		ch.Upserts = append(ch.Upserts, object(fmt.Sprintf("new-%s-%d.md#0", tag, i), "fresh "+tag+" chunk text"))
	}
	return ch
}

// universe is every chunk id a test used.
func universe(objs []Object, chs ...Change) []string {
	ids := chunkIDs(objs)
	for _, ch := range chs {
		ids = append(ids, ch.chunkIDs()...)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// checkPair asserts that the collection the alias names holds want, and
// that both do once the standby is brought up to date.
func checkPair(t *testing.T, c *Client, p *Pair, want state, ids []string) {
	t.Helper()
	if diff := cmp.Diff(want.lines(), contents(t, c, p.Alias(), ids)); diff != "" {
		t.Fatalf("the alias differs from the expected state (-want +got):\n%s", diff)
	}
	if _, err := p.Sync(testContext(t)); err != nil {
		t.Fatal(err)
	}
	active, err := c.ResolveAlias(testContext(t), p.Alias())
	if err != nil {
		t.Fatal(err)
	}
	other, _ := partner(active)
	for _, name := range []string{active, other} {
		if diff := cmp.Diff(want.lines(), contents(t, c, name, ids)); diff != "" {
			t.Fatalf("%s differs from the expected state (-want +got):\n%s", name, diff)
		}
	}
}

func TestPairIncrementalEqualsRebuild(t *testing.T) {
	c := testCluster(t)
	ctx := testContext(t)
	s := testSettings(t, c)
	base := corpus(400, 3)
	p := NewPair(c, testAlias(t, c), s)
	rep, err := p.Build(ctx, "e1", base)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Active != p.Alias()+"_e1_a" {
		t.Fatalf("build made %s active", rep.Active)
	}
	if _, err := p.Build(ctx, "e1", base); !errors.Is(err, ErrRefused) {
		t.Fatalf("rebuilding the served epoch: got %v, want ErrRefused", err)
	}
	ch1, ch2 := edit(base, 10, "one"), edit(base[20:], 5, "two")
	want := stateOf(base)
	// Each update first brings the standby up to date on the previous
	// change's chunks (none after a build).
	for i, ch := range []Change{ch1, ch2} {
		rep, err := p.Commit(ctx, ch)
		if err != nil {
			t.Fatal(err)
		}
		want = want.apply(ch)
		wantRepaired := []int{0, len(ch1.chunkIDs())}[i]
		if wantActive := p.Alias() + []string{"_e1_b", "_e1_a"}[i]; rep.Active != wantActive || rep.Repaired != wantRepaired {
			t.Fatalf("commit %d: %+v, want %s active and %d chunks brought up to date", i, rep, wantActive, wantRepaired)
		}
	}
	checkPair(t, c, p, want, universe(base, ch1, ch2))

	// A rebuild of the final state under a new epoch answers like the
	// incremental one, and collects the old epoch.
	var final []Object
	for _, o := range want {
		final = append(final, o)
	}
	fresh := NewPair(c, testAlias(t, c), s)
	if _, err := fresh.Build(ctx, "e1", final); err != nil {
		t.Fatal(err)
	}
	// A limited query finds chunks the last update wrote: Weaviate 1.35.2's
	// BlockMax WAND prunes them (memtable terms get no upper bound, weaviate
	// PR #11780), so the cluster must run with USE_BLOCKMAX_WAND=false.
	top, err := c.Search(ctx, p.Alias(), Query{Mode: BM25, Tokens: object("q", "fresh two chunk").Tokens, K: 3}, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range top {
		if !strings.HasPrefix(h.ChunkID, "new-two-") {
			t.Errorf("top 3 of \"fresh two chunk\" = %+v; want the chunks holding all three terms (cluster without USE_BLOCKMAX_WAND=false?)", top)
			break
		}
	}
	// Weaviate's BM25 statistics count overwritten and deleted objects until
	// compaction, so scores (and the order of the top 10) may differ from a
	// rebuild; the chunks that match must not.
	for _, q := range []string{"retry backoff", "edited one", "fresh two chunk", "raft leader gossip"} {
		o := object("q", q)
		qq := Query{Mode: BM25, Tokens: o.Tokens, K: 1000}
		got, err := c.Search(ctx, p.Alias(), qq, s)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := c.Search(ctx, fresh.Alias(), qq, s)
		if diff := cmp.Diff(hitIDs(ref), hitIDs(got)); diff != "" {
			t.Errorf("query %q: incremental matches differ from rebuild (-rebuild +incremental):\n%s", q, diff)
		}
		t.Logf("query %q: %d matches, top-10 overlap with rebuild %d", q, len(got), overlap(got, ref, 10))
	}
	if _, err := p.Build(ctx, "e2", final); err != nil {
		t.Fatal(err)
	}
	names, _ := c.ListCollections(ctx)
	for _, n := range names {
		if strings.HasPrefix(n, p.Alias()+"_e1") {
			t.Errorf("old epoch collection %s not collected", n)
		}
	}
}

// overlap counts the chunks the top k of a and b share.
func overlap(a, b []Hit, k int) int {
	top := map[string]bool{}
	for _, h := range a[:min(k, len(a))] {
		top[h.ChunkID] = true
	}
	n := 0
	for _, h := range b[:min(k, len(b))] {
		if top[h.ChunkID] {
			n++
		}
	}
	return n
}

func hitIDs(hits []Hit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ChunkID
	}
	sort.Strings(ids)
	return ids
}

// TestPairReadersSeeOldOrNew: readers of the alias during an update see all
// of the old state or all of the new one. The standby collection, queried
// directly mid-update, shows the half-applied state the alias hides, so the
// check can fail.
func TestPairReadersSeeOldOrNew(t *testing.T) {
	c := testCluster(t)
	ctx := testContext(t)
	s := testSettings(t, c)
	s.BatchSize, s.Concurrency = 20, 1
	const group = 120
	var base []Object
	var ch Change
	for i := 0; i < group; i++ {
		old := fmt.Sprintf("alpha%03d.md#0", i)
		base = append(base, object(old, "alpha shared words"))
		ch.Deletes = append(ch.Deletes, old)
		ch.Upserts = append(ch.Upserts, object(fmt.Sprintf("beta%03d.md#0", i), "beta shared words"))
	}
	base = append(base, corpus(200, 9)...)
	p := NewPair(c, testAlias(t, c), s)
	if _, err := p.Build(ctx, "e1", base); err != nil {
		t.Fatal(err)
	}
	q := Query{Mode: BM25, Tokens: "alpha beta", K: 1000}
	// view counts the old (alpha) and new (beta) chunks one query finds.
	view := func(collection string) (alpha, beta int, err error) {
		hits, err := c.Search(ctx, collection, q, s)
		for _, h := range hits {
			if strings.HasPrefix(h.ChunkID, "alpha") {
				alpha++
			} else {
				beta++
			}
		}
		return alpha, beta, err
	}
	var mu sync.Mutex
	seen := map[string]int{}
	record := func(a, b int, err error) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err != nil:
			t.Errorf("reader: %v", err)
		case a == group && b == 0:
			seen["old"]++
		case a == 0 && b == group:
			seen["new"]++
		default:
			seen[fmt.Sprintf("mixed %d/%d", a, b)]++
		}
	}
	midway := false
	p.stage = func(name string) {
		if name != "batch" || midway {
			return
		}
		midway = true
		a, b, err := view(p.Alias() + "_e1_b")
		if err != nil || a == group || b == group {
			t.Errorf("standby mid-update shows %d alpha / %d beta (%v); want a mix", a, b, err)
		}
		record(view(p.Alias()))
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				record(view(p.Alias()))
				select {
				case <-done:
					record(view(p.Alias()))
					return
				default:
				}
			}
		}()
	}
	record(view(p.Alias()))
	_, err := p.Commit(ctx, ch)
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("reader views: %v", seen)
	for k := range seen {
		if k != "old" && k != "new" {
			t.Errorf("a reader saw a half-applied state: %v", seen)
		}
	}
	if seen["old"] == 0 || seen["new"] == 0 {
		t.Errorf("readers saw %v; want both the old and the new state", seen)
	}
}
