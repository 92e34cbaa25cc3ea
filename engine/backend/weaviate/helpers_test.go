package weaviate

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/analyze"
)

// testCluster returns a client for the cluster at AUTORAG_WEAVIATE_URL. Without
// it the test is skipped with the reason, except under CI, where .ci/run starts
// a 3-node cluster and a missing URL is a failure.
func testCluster(t testing.TB) *Client {
	t.Helper()
	u := os.Getenv("AUTORAG_WEAVIATE_URL")
	if u == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but AUTORAG_WEAVIATE_URL is not: .ci/run must start the cluster (scripts/weaviate-cluster.sh up)")
		}
		t.Skip("AUTORAG_WEAVIATE_URL unset: run `make weaviate-up` and export the URL it prints")
	}
	// With AUTORAG_WEAVIATE_GRPC every test imports over gRPC (.ci/run sets it).
	c, err := New(Config{URL: u, APIKey: os.Getenv("AUTORAG_WEAVIATE_API_KEY"), GRPC: os.Getenv("AUTORAG_WEAVIATE_GRPC")})
	if err != nil {
		t.Fatal(err)
	}
	// A fault test before this one may have restarted nodes: wait until the
	// cluster is whole again (every Raft member listed and HEALTHY) rather
	// than start writing to a cluster that drops replicas.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		err := c.Ready(ctx)
		if err == nil {
			err = c.Health(ctx)
		}
		if err == nil {
			return c
		}
		select {
		case <-ctx.Done():
			t.Fatalf("cluster at %s not whole after 2 minutes: %v", u, err)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// testSettings are 3 shards × 2 replicas on a 3-node cluster, 1 × 1 on one,
// decided once per test process (fault tests take nodes down later).
func testSettings(t testing.TB, c *Client) Settings {
	t.Helper()
	settingsOnce.Do(func() {
		nodes, err := c.Nodes(context.Background())
		if err != nil {
			settingsErr = err
			return
		}
		clusterNodes = len(nodes)
	})
	if settingsErr != nil {
		t.Fatal(settingsErr)
	}
	if clusterNodes >= 3 {
		return Settings{Shards: 3, Replicas: 2, BatchSize: 100}
	}
	return Settings{Shards: 1, Replicas: 1, BatchSize: 100}
}

var (
	settingsOnce sync.Once
	settingsErr  error
	clusterNodes int
)

var nonName = regexp.MustCompile(`[^A-Za-z0-9]`)

// testAlias is a fresh alias name for t, dropped with its collections at the end.
func testAlias(t testing.TB, c *Client) string {
	t.Helper()
	a := fmt.Sprintf("T%s%04d", nonName.ReplaceAllString(t.Name(), ""), rand.IntN(10000))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := NewPair(c, a, Settings{}).Drop(ctx); err != nil {
			t.Logf("drop %s: %v", a, err)
		}
	})
	return a
}

// testCollection creates a chunk collection named after a fresh test
// alias (dropped with it at the end) on the test cluster, and returns the
// client, a test context, the settings it was created with and its name.
func testCollection(t testing.TB) (*Client, context.Context, Settings, string) {
	t.Helper()
	c := testCluster(t)
	ctx := testContext(t)
	s := testSettings(t, c)
	name := testAlias(t, c) + "_x_a"
	if err := c.CreateCollection(ctx, name, s); err != nil {
		t.Fatal(err)
	}
	return c, ctx, s, name
}

func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

const dim = 16

// vectorOf is a deterministic unit vector for a text: the bag of its terms
// hashed into dim buckets, so texts sharing terms are near each other.
func vectorOf(terms []string) []float32 {
	v := make([]float32, dim)
	for _, t := range terms {
		h := fnv.New32a()
		h.Write([]byte(t))
		v[h.Sum32()%dim]++
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	if n == 0 {
		v[0], n = 1, 1
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

var words = strings.Fields(`retry backoff cache evict token rotate signing key index query shard replica
vector embed chunk parser stream buffer socket timeout deadline lock commit alias schema batch import
cluster node leader raft gossip heartbeat snapshot segment merge compact bloom filter ranking fusion`)

// object builds chunk n of a synthetic corpus with the given text.
func object(id, text string) Object {
	terms := analyze.Terms(text)
	return Object{ChunkID: id, Path: strings.SplitN(id, "#", 2)[0], Text: text,
		Tokens: strings.Join(terms, " "), Meta: `{"lang":"en"}`, Vector: vectorOf(terms)}
}

// corpus is n synthetic chunks with ids doc<i>.md#0 and 12-word texts.
func corpus(n int, seed uint64) []Object {
	r := rand.New(rand.NewPCG(seed, 1))
	objs := make([]Object, n)
	for i := range objs {
		var b strings.Builder
		for j := 0; j < 12; j++ {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		objs[i] = object(fmt.Sprintf("doc%05d.md#0", i), b.String())
	}
	return objs
}

func chunkIDs(objs []Object) []string {
	ids := make([]string, len(objs))
	for i, o := range objs {
		ids[i] = o.ChunkID
	}
	return ids
}

// contents fetches ids from collection as "chunkId tokens" lines, sorted.
func contents(t testing.TB, c *Client, collection string, ids []string) []string {
	t.Helper()
	return contentsAt(t, c, collection, ids, "ALL")
}

// contentsAt is contents read at a consistency level.
func contentsAt(t testing.TB, c *Client, collection string, ids []string, level string) []string {
	t.Helper()
	s := testSettings(t, c)
	s.Read = level
	objs, err := c.Fetch(testContext(t), collection, ids, s)
	if err != nil {
		t.Fatal(err)
	}
	lines := make([]string, len(objs))
	for i, o := range objs {
		lines[i] = fmt.Sprintf("%s|%s|%s|%v", o.ChunkID, o.Tokens, o.Meta, len(o.Vector) == dim)
	}
	sort.Strings(lines)
	return lines
}
