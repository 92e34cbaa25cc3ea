package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Mode selects the ranking of a search.
type Mode int

const (
	// BM25 ranks by BM25 over the tokens property.
	BM25 Mode = iota
	// Vector ranks by cosine similarity to Query.Vector.
	Vector
	// Hybrid fuses BM25 and vector with Weaviate's relative score fusion.
	Hybrid
)

// Query is one search.
type Query struct {
	Mode Mode
	// Tokens is the query analyzed by autorag's analyzer, joined by spaces.
	Tokens string
	Vector []float32
	// K is the number of hits; 0 means 10.
	K int
	// Alpha weighs the vector side of a hybrid search (0 = BM25 only).
	Alpha float64
	// Facets, when set, keep only the objects whose Facets hold every one.
	Facets []string
	// Lang, when set, keeps only the objects of that Lang.
	Lang string
}

// Hit is one ranked chunk. Score is BM25's or the fused score; for a vector
// search it is the cosine similarity (1 − distance).
type Hit struct {
	ChunkID string
	Path    string
	Score   float64
}

// maxResults is the most hits one search may ask for: Weaviate refuses a
// larger limit (QUERY_MAXIMUM_RESULTS, 10,000 by default).
const maxResults = 10000

// Search runs q against collection (an alias, for readers) at the read
// consistency level of s.
func (c *Client) Search(ctx context.Context, collection string, q Query, s Settings) ([]Hit, error) {
	s = s.withDefaults()
	k := q.K
	if k <= 0 {
		k = 10
	}
	k = min(k, maxResults)
	args, err := searchArgs(q)
	if err != nil {
		return nil, err
	}
	gql := fmt.Sprintf("{Get{%s(%s%s, limit:%d%s){%s %s _additional{score distance}}}}",
		collection, args, where(q), k, readLevel(s), propChunkID, propPath)
	var out map[string][]struct {
		ChunkID    string `json:"chunkId"`
		Path       string `json:"path"`
		Additional struct {
			Score    *string  `json:"score"`
			Distance *float64 `json:"distance"`
		} `json:"_additional"`
	}
	if err := c.graphql(ctx, "search "+collection, gql, "Get", &out); err != nil {
		return nil, err
	}
	rows := out[collection]
	hits := make([]Hit, len(rows))
	for i, r := range rows {
		hits[i] = Hit{ChunkID: r.ChunkID, Path: r.Path}
		// A vector search answers score "0" next to the distance.
		switch {
		case q.Mode == Vector && r.Additional.Distance != nil:
			hits[i].Score = 1 - *r.Additional.Distance
		case r.Additional.Score != nil:
			hits[i].Score, _ = strconv.ParseFloat(*r.Additional.Score, 64)
		case r.Additional.Distance != nil:
			hits[i].Score = 1 - *r.Additional.Distance
		}
	}
	return hits, nil
}

func searchArgs(q Query) (string, error) {
	switch q.Mode {
	case BM25:
		return fmt.Sprintf("bm25:{query:%s, properties:[%q]}", quote(q.Tokens), propTokens), nil
	case Vector:
		if len(q.Vector) == 0 {
			return "", fmt.Errorf("vector search: %w: no vector", ErrRefused)
		}
		return fmt.Sprintf("nearVector:{vector:%s}", vectorLiteral(q.Vector)), nil
	case Hybrid:
		if len(q.Vector) == 0 {
			return "", fmt.Errorf("hybrid search: %w: no vector", ErrRefused)
		}
		return fmt.Sprintf("hybrid:{query:%s, vector:%s, alpha:%s, properties:[%q], fusionType:relativeScoreFusion}",
			quote(q.Tokens), vectorLiteral(q.Vector), strconv.FormatFloat(q.Alpha, 'g', -1, 64), propTokens), nil
	}
	return "", fmt.Errorf("search mode %d: %w", q.Mode, ErrRefused)
}

// where is the filter argument of q: the search ranks only the objects it
// keeps, so a filtered list is not cut from an unfiltered top k.
func where(q Query) string {
	var ops []string
	if len(q.Facets) > 0 {
		vals := make([]string, len(q.Facets))
		for i, f := range q.Facets {
			vals[i] = quote(f)
		}
		ops = append(ops, fmt.Sprintf("{path:[%q], operator:ContainsAll, valueText:[%s]}", propFacets, strings.Join(vals, ",")))
	}
	if q.Lang != "" {
		ops = append(ops, fmt.Sprintf("{path:[%q], operator:Equal, valueText:%s}", propLang, quote(q.Lang)))
	}
	switch len(ops) {
	case 0:
		return ""
	case 1:
		return ", where:" + ops[0]
	}
	return ", where:{operator:And, operands:[" + strings.Join(ops, ",") + "]}"
}

func vectorLiteral(v []float32) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	b.WriteByte(']')
	return b.String()
}

// graphql runs a query and decodes data[root] into out. GraphQL errors come
// back with HTTP 200; they are classified like the equivalent REST failure.
func (c *Client) graphql(ctx context.Context, op, query, root string, out any) error {
	var resp struct {
		Data   map[string]json.RawMessage `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := c.do(ctx, op, http.MethodPost, "/v1/graphql", map[string]string{"query": query}, &resp); err != nil {
		return err
	}
	if len(resp.Errors) > 0 {
		msg := short(resp.Errors[0].Message)
		kind := ErrRefused
		if strings.Contains(msg, "could not find class") || strings.Contains(msg, "Cannot query field") {
			kind = ErrNotFound
		} else if c.Health(ctx) != nil {
			kind = ErrDegraded
		}
		return &apiError{op: op, kind: kind, msg: redact(msg, c.key)}
	}
	raw, ok := resp.Data[root]
	if !ok || string(raw) == "null" {
		return &apiError{op: op, kind: ErrRefused, msg: "empty answer"}
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &apiError{op: op, kind: ErrRefused, msg: "decode answer: " + err.Error()}
	}
	return nil
}

// Fetch returns the stored objects (with tokens and vectors) of the given
// chunk ids that exist in collection; missing ids are left out.
func (c *Client) Fetch(ctx context.Context, collection string, chunkIDs []string, s Settings) ([]Object, error) {
	return c.fetchAll(ctx, collection, chunkIDs, s, fieldsAll)
}

// Lookup is Fetch of what showing a result needs: path, text and metadata
// (a vector alone is a few kB of JSON).
func (c *Client) Lookup(ctx context.Context, collection string, chunkIDs []string, s Settings) ([]Object, error) {
	return c.fetchAll(ctx, collection, chunkIDs, s, fieldsShown)
}

// Vectors is Fetch of the chunk ids and vectors alone.
func (c *Client) Vectors(ctx context.Context, collection string, chunkIDs []string, s Settings) ([]Object, error) {
	return c.fetchAll(ctx, collection, chunkIDs, s, fieldsVector)
}

// fetchFields are the properties a fetch asks for, the chunk id first.
type fetchFields string

const (
	fieldsAll    fetchFields = propChunkID + " " + propPath + " " + propText + " " + propMeta + " " + propTokens + " " + propFacets + " " + propLang + " _additional{vector}"
	fieldsShown  fetchFields = propChunkID + " " + propPath + " " + propText + " " + propMeta
	fieldsVector fetchFields = propChunkID + " _additional{vector}"
)

func (c *Client) fetchAll(ctx context.Context, collection string, chunkIDs []string, s Settings, fields fetchFields) ([]Object, error) {
	s = s.withDefaults()
	var objs []Object
	for start := 0; start < len(chunkIDs); start += deleteChunk {
		part := chunkIDs[start:min(start+deleteChunk, len(chunkIDs))]
		got, err := c.fetch(ctx, collection, part, readLevel(s), fields)
		if err != nil {
			return nil, err
		}
		objs = append(objs, got...)
	}
	return objs, nil
}

// readLevel is the GraphQL consistency argument, which Weaviate accepts
// only on replicated collections.
func readLevel(s Settings) string {
	if s.Replicas <= 1 {
		return ""
	}
	return ", consistencyLevel:" + s.Read
}

func (c *Client) fetch(ctx context.Context, collection string, chunkIDs []string, level string, fields fetchFields) ([]Object, error) {
	ids := make([]string, len(chunkIDs))
	for i, id := range chunkIDs {
		ids[i] = strconv.Quote(ObjectID(id))
	}
	gql := fmt.Sprintf(`{Get{%s(where:{path:["id"], operator:ContainsAny, valueText:[%s]}, limit:%d%s){%s}}}`,
		collection, strings.Join(ids, ","), len(ids), level, fields)
	var out map[string][]struct {
		ChunkID    string   `json:"chunkId"`
		Path       string   `json:"path"`
		Text       string   `json:"text"`
		Tokens     string   `json:"tokens"`
		Meta       string   `json:"meta"`
		Facets     []string `json:"facets"`
		Lang       string   `json:"lang"`
		Additional struct {
			Vector []float32 `json:"vector"`
		} `json:"_additional"`
	}
	if err := c.graphql(ctx, "fetch from "+collection, gql, "Get", &out); err != nil {
		return nil, err
	}
	objs := make([]Object, 0, len(out[collection]))
	for _, r := range out[collection] {
		objs = append(objs, Object{ChunkID: r.ChunkID, Path: r.Path, Text: r.Text, Tokens: r.Tokens, Meta: r.Meta,
			Facets: r.Facets, Lang: r.Lang, Vector: r.Additional.Vector})
	}
	return objs, nil
}
