package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// Settings are the storage settings of a collection.
type Settings struct {
	// Shards is the number of shards (desiredCount); 0 means 1.
	Shards int
	// Replicas is the replication factor; 0 means 1.
	Replicas int
	// Write is the consistency level of writes (ONE, QUORUM, ALL); "" means
	// QUORUM, which with 2 replicas waits for both.
	Write string
	// Read is the consistency level of queries; "" means ONE, so queries keep
	// answering while one replica of each shard is up. It applies only when
	// Replicas > 1 (Weaviate rejects it on an unreplicated collection).
	Read string
	// BatchSize is the number of objects per import request; 0 means 200.
	BatchSize int
	// Concurrency bounds the import requests in flight; 0 means 2.
	Concurrency int
	// Retries is how many times a failed batch is retried when the failure
	// may pass (unreachable, degraded); 0 means 4.
	Retries int
	// VectorIndex is the vector index of a new collection: "flat" (an
	// exact scan, as the local backend's) or "hnsw"; "" means hnsw.
	// Pair.Build picks it by the collection's size (vectorIndexFor).
	VectorIndex string
}

func (s Settings) withDefaults() Settings {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&s.Shards, 1)
	def(&s.Replicas, 1)
	def(&s.BatchSize, 200)
	def(&s.Concurrency, 2)
	def(&s.Retries, defaultRetries)
	if s.Write == "" {
		s.Write = "QUORUM"
	}
	if s.Read == "" {
		s.Read = "ONE"
	}
	return s
}

// vectorIndexType is the index a new collection is created with: s's, or
// HNSW where nothing picked one. It is not a default of withDefaults, which
// every constructor applies: there it would hide "unset" from Pair.Build's
// pick by size (vectorIndexFor).
func (s Settings) vectorIndexType() string {
	if s.VectorIndex == "" {
		return "hnsw"
	}
	return s.VectorIndex
}

// defaultRetries is how often a request the cluster could not serve is
// tried again (with backoff: 250 ms, 500 ms, 1 s, 2 s).
const defaultRetries = 4

// Property names of a chunk object.
const (
	propChunkID = "chunkId"
	propPath    = "path"
	propText    = "text"
	propTokens  = "tokens"
	propMeta    = "meta"
	propFacets  = "facets" // filter terms ("type=pdf"): whole strings, filterable
	propLang    = "lang"   // analysis language of the tokens, filterable
)

func property(name, tokenization string, filterable, searchable bool) map[string]any {
	p := map[string]any{
		"name": name, "dataType": []string{"text"},
		"indexFilterable": filterable, "indexSearchable": searchable,
	}
	if tokenization != "" {
		p["tokenization"] = tokenization
	}
	return p
}

// textArray makes p a property of many text values.
func textArray(p map[string]any) map[string]any {
	p["dataType"] = []string{"text[]"}
	return p
}

// classDef is the schema of a chunk collection: BM25 over the pre-analyzed
// tokens only, with the local backend's parameters and no stop words. The
// servers keep a filter index only for what a search's where filters on
// (facets, lang); fetches and deletes select by object id, which Weaviate
// indexes on its own, so chunkId and path are stored, not indexed.
func classDef(name string, s Settings) map[string]any {
	return map[string]any{
		"class":           name,
		"vectorizer":      "none",
		"vectorIndexType": s.vectorIndexType(),
		"properties": []any{
			property(propChunkID, "field", false, false),
			property(propPath, "field", false, false),
			property(propText, "", false, false),
			property(propTokens, "whitespace", false, true),
			property(propMeta, "", false, false),
			textArray(property(propFacets, "field", true, false)),
			property(propLang, "field", true, false),
		},
		"invertedIndexConfig": map[string]any{
			"bm25":      map[string]any{"k1": 0.9, "b": 0.4},
			"stopwords": map[string]any{"preset": "none"},
		},
		"shardingConfig":    map[string]any{"desiredCount": s.Shards},
		"replicationConfig": map[string]any{"factor": s.Replicas},
	}
}

// CreateCollection creates an empty chunk collection.
//
// It returns once every replica of every shard exists on its node: the
// schema change is committed through Raft before each node applies it, and
// a write reaching a node that has not yet fails with "could not find index
// for class".
func (c *Client) CreateCollection(ctx context.Context, name string, s Settings) error {
	s = s.withDefaults()
	tried := false
	err := c.retry(ctx, s.Retries, func() error {
		err := c.do(ctx, "create collection "+name, http.MethodPost, "/v1/schema", classDef(name, s), nil)
		if tried && err != nil && strings.Contains(err.Error(), "already exists") {
			return nil // the failed attempt had created it
		}
		tried = true
		return err
	})
	if err != nil {
		return err
	}
	return c.waitShards(ctx, name, s.Shards*s.Replicas)
}

// shardsReadyTimeout bounds how long CreateCollection and CreateAlias wait for
// the nodes to apply a schema change.
const shardsReadyTimeout = time.Minute

// waitShards polls /v1/nodes/{name}?output=verbose until the nodes hold want
// shard replicas of the collection between them.
func (c *Client) waitShards(ctx context.Context, name string, want int) error {
	path := "/v1/nodes/" + url.PathEscape(name) + "?output=verbose"
	got := 0
	err := c.poll(ctx, shardsReadyTimeout, func() error {
		var out struct {
			Nodes []struct {
				Shards []struct {
					Name string `json:"name"`
				} `json:"shards"`
			} `json:"nodes"`
		}
		err := c.do(ctx, "shards of "+name, http.MethodGet, path, nil, &out)
		got = 0
		for _, n := range out.Nodes {
			got += len(n.Shards)
		}
		if err == nil && got < want {
			err = errors.New("not yet")
		}
		return err
	})
	if err != nil {
		return &apiError{op: "create collection " + name, kind: ErrDegraded,
			msg: fmt.Sprintf("%d of %d shard replicas created after %v (%v)", got, want, shardsReadyTimeout, err)}
	}
	return nil
}

// poll calls f every 100 ms until it returns nil or timeout passes, and
// returns f's last error then.
func (c *Client) poll(ctx context.Context, timeout time.Duration, f func() error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		err := f()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// DropCollection deletes a collection and its objects; a missing one is not
// an error.
func (c *Client) DropCollection(ctx context.Context, name string) error {
	err := c.retry(ctx, defaultRetries, func() error {
		return c.do(ctx, "drop collection "+name, http.MethodDelete, "/v1/schema/"+url.PathEscape(name), nil, nil)
	})
	if isNotFound(err) {
		return nil
	}
	return err
}

// ListCollections returns the names of all collections, sorted.
func (c *Client) ListCollections(ctx context.Context) ([]string, error) {
	var out struct {
		Classes []struct {
			Class string `json:"class"`
		} `json:"classes"`
	}
	if err := c.do(ctx, "list collections", http.MethodGet, "/v1/schema", nil, &out); err != nil {
		return nil, err
	}
	names := make([]string, len(out.Classes))
	for i, cl := range out.Classes {
		names[i] = cl.Class
	}
	sort.Strings(names)
	return names, nil
}

// Collection describes an existing collection's settings.
type Collection struct {
	Name     string
	Shards   int
	Replicas int
	K1, B    float64
	// VectorIndex is the collection's vector index type ("flat", "hnsw").
	VectorIndex string
}

// DescribeCollection reads a collection's schema.
func (c *Client) DescribeCollection(ctx context.Context, name string) (Collection, error) {
	var out struct {
		Class       string `json:"class"`
		VectorIndex string `json:"vectorIndexType"`
		Inverted    struct {
			BM25 struct {
				K1 float64 `json:"k1"`
				B  float64 `json:"b"`
			} `json:"bm25"`
		} `json:"invertedIndexConfig"`
		Sharding struct {
			DesiredCount int `json:"desiredCount"`
		} `json:"shardingConfig"`
		Replication struct {
			Factor int `json:"factor"`
		} `json:"replicationConfig"`
	}
	if err := c.do(ctx, "describe collection "+name, http.MethodGet, "/v1/schema/"+url.PathEscape(name), nil, &out); err != nil {
		return Collection{}, err
	}
	if out.Class == "" {
		return Collection{}, fmt.Errorf("describe collection %s: %w", name, ErrNotFound)
	}
	return Collection{Name: out.Class, Shards: out.Sharding.DesiredCount, Replicas: out.Replication.Factor,
		K1: out.Inverted.BM25.K1, B: out.Inverted.BM25.B, VectorIndex: out.VectorIndex}, nil
}
