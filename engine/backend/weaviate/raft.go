package weaviate

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
)

// raftNode is one member's entry in /v1/cluster/statistics.
type raftNode struct {
	Name string `json:"name"`
	Raft struct {
		State       string `json:"state"`
		AppliedIdx  string `json:"appliedIndex"`
		CommitIdx   string `json:"commitIndex"`
		FSMPending  string `json:"fsmPending"`
		LatestNodes []struct {
			ID      string `json:"id"`
			Address string `json:"address"`
		} `json:"latestConfiguration"`
	} `json:"raft"`
}

func (n raftNode) applied() uint64 {
	v, _ := strconv.ParseUint(n.Raft.AppliedIdx, 10, 64)
	return v
}

func (n raftNode) committed() uint64 {
	v, _ := strconv.ParseUint(n.Raft.CommitIdx, 10, 64)
	return v
}

// statistics returns every reachable member's Raft state.
func (c *Client) statistics(ctx context.Context) ([]raftNode, error) {
	var out struct {
		Statistics []raftNode `json:"statistics"`
	}
	if err := c.do(ctx, "cluster statistics", http.MethodGet, "/v1/cluster/statistics", nil, &out); err != nil {
		return nil, err
	}
	return out.Statistics, nil
}

// votersOf returns the node ids of the Raft configuration the leader (or
// else any node) reports in stats.
func votersOf(stats []raftNode) []string {
	var ids []string
	for _, st := range stats {
		if len(st.Raft.LatestNodes) == 0 || (len(ids) > 0 && st.Raft.State != "Leader") {
			continue
		}
		ids = ids[:0]
		for _, m := range st.Raft.LatestNodes {
			ids = append(ids, m.ID)
		}
		if st.Raft.State == "Leader" {
			break
		}
	}
	return ids
}

// settle returns once every member of the cluster has taken in the schema
// changes committed so far (an alias swap, say). Weaviate answers a schema
// change once its leader has applied it, but a follower resolves an alias
// from its own copy of the schema, which lags: queries sent to it keep
// reading the old collection for a while (seen on a cluster whose node 1,
// the one autorag talks to, was not the leader). A member that does not
// answer makes settle fail with ErrDegraded. stats, when not nil, is an
// answer of /v1/cluster/statistics read after the change, which saves
// reading one.
//
// The wait is as good as Raft's statistics: a node's appliedIndex counts
// the entries handed to its state machine, and fsmPending the ones queued
// for it, so an entry the state machine is applying at that very moment
// (a few milliseconds: the schema change and the node's GraphQL rebuild)
// passes for applied. Pair writes to the collection an alias left only at
// the next update, well after that.
func (c *Client) settle(ctx context.Context, stats []raftNode) error {
	if stats == nil {
		var err error
		if stats, err = c.statistics(ctx); err != nil {
			return err
		}
	}
	var target uint64
	for _, n := range stats {
		target = max(target, n.committed())
	}
	if caughtUp(stats, target) == nil {
		return nil
	}
	return c.poll(ctx, shardsReadyTimeout, func() error {
		stats, err := c.statistics(ctx)
		if err != nil {
			return err
		}
		return caughtUp(stats, target)
	})
}

// caughtUp says whether every voter in stats has applied log index target
// and has nothing left for its state machine.
func caughtUp(stats []raftNode, target uint64) error {
	seen := map[string]raftNode{}
	for _, n := range stats {
		seen[n.Name] = n
	}
	for _, v := range votersOf(stats) {
		n, ok := seen[v]
		switch {
		case !ok:
			return &apiError{op: "settle", kind: ErrDegraded, msg: v + " does not report its raft state"}
		case n.applied() < target || n.Raft.FSMPending != "0":
			return &apiError{op: "settle", kind: ErrDegraded,
				msg: fmt.Sprintf("%s has applied raft index %d of %d", v, n.applied(), target)}
		}
	}
	return nil
}
