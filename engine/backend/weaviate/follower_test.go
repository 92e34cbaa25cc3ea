package weaviate

import (
	"net"
	"net/url"
	"strings"
	"testing"
)

// TestPairSwapSeenThroughFollower: talking to a node that is a Raft
// follower, reads of the alias see an update's new state once Commit has
// swapped the alias (its "swapped" step, after which it returns). Weaviate
// answers the swap once the leader applied it, and a follower resolves
// aliases from its own copy of the schema: before Commit waited for every
// member to apply the swap, reads through a follower at that step still saw
// the old collection, which the old Commit then rewrote under them.
func TestPairSwapSeenThroughFollower(t *testing.T) {
	c := follower(t, testCluster(t))
	ctx := testContext(t)
	s := testSettings(t, c)
	base := corpus(200, 8)
	p := NewPair(c, testAlias(t, c), s)
	if _, err := p.Build(ctx, "e1", base); err != nil {
		t.Fatal(err)
	}
	want := stateOf(base)
	for i, tag := range []string{"one", "two", "three"} {
		ch := edit(want.objects(), 20, tag)
		next := want.apply(ch)
		var got []string
		p.stage = func(name string) {
			if name == "swapped" {
				got = contents(t, c, p.Alias(), universe(want.objects(), ch))
			}
		}
		if _, err := p.Commit(ctx, ch); err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "\n") != strings.Join(next.lines(), "\n") {
			t.Fatalf("update %d: once swapped, the alias read through a follower shows %d chunks, not the new state", i+1, len(got))
		}
		want = next
	}
}

// follower returns a client of a node that is not the Raft leader: the
// nodes of scripts/weaviate-cluster.sh serve REST on the same port, each on
// the loopback address its Raft address names.
func follower(t *testing.T, c *Client) *Client {
	t.Helper()
	testSettings(t, c) // counts the cluster's nodes
	stats, err := c.statistics(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(c.base)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range stats {
		if n.Raft.State != "Follower" {
			continue
		}
		for _, m := range n.Raft.LatestNodes {
			if m.ID != n.Name {
				continue
			}
			host, _, err := net.SplitHostPort(m.Address)
			if err != nil {
				t.Fatal(err)
			}
			f, err := New(Config{URL: "http://" + net.JoinHostPort(host, u.Port())})
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	if clusterNodes < 2 {
		t.Skip("a one-node cluster has no follower")
	}
	t.Fatal("no follower listed in the cluster statistics")
	return nil
}
