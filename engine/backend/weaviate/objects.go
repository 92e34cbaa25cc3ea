package weaviate

import (
	"context"
	"crypto/sha1"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"
)

// Object is one chunk as stored in a collection.
type Object struct {
	ChunkID string
	Path    string
	Text    string
	// Tokens is the text analyzed by autorag's analyzer, joined by spaces.
	Tokens string
	// Meta is opaque JSON the caller keeps with the chunk.
	Meta string
	// Facets are the filter terms a search's Query.Facets selects by.
	Facets []string
	// Lang is the language Tokens were analyzed in, which a search's
	// Query.Lang selects by.
	Lang   string
	Vector []float32
}

// idNamespace is the RFC 4122 namespace of chunk object ids.
var idNamespace = [16]byte{0x6a, 0x2f, 0x51, 0x0e, 0x8b, 0x3c, 0x4d, 0x1a, 0x9e, 0x07, 0x5b, 0x66, 0x21, 0xc4, 0xd8, 0x93}

// ObjectID is the object UUID of a chunk: a name-based (version 5) UUID of
// its chunk id, so an import of the same chunk overwrites it and a delete
// needs no lookup.
func ObjectID(chunkID string) string {
	h := sha1.New()
	h.Write(idNamespace[:])
	h.Write([]byte(chunkID))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

func (o Object) wire(class string) map[string]any {
	m := map[string]any{
		"class": class,
		"id":    ObjectID(o.ChunkID),
		"properties": map[string]any{
			propChunkID: o.ChunkID, propPath: o.Path, propText: o.Text,
			propTokens: o.Tokens, propMeta: o.Meta,
			propFacets: nonNil(o.Facets), propLang: o.Lang,
		},
	}
	if len(o.Vector) > 0 {
		m["vector"] = o.Vector
	}
	return m
}

// nonNil stores no facets as an empty list rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Import writes objects (insert or overwrite by chunk id) in batches of
// s.BatchSize with at most s.Concurrency requests in flight, retrying a batch
// whose failure may pass. A write the cluster cannot replicate is reported as
// ErrDegraded, one it rejects as ErrRefused. The collection must exist (a
// cluster with auto-schema would otherwise create a misnamed one).
func (c *Client) Import(ctx context.Context, collection string, objs []Object, s Settings) error {
	s = s.withDefaults()
	if _, err := c.DescribeCollection(ctx, collection); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.Concurrency)
	for start := 0; start < len(objs); start += s.BatchSize {
		batch := objs[start:min(start+s.BatchSize, len(objs))]
		g.Go(func() error {
			return c.retry(gctx, s.Retries, func() error { return c.importBatch(gctx, collection, batch, s.Write) })
		})
	}
	return g.Wait()
}

func (c *Client) importBatch(ctx context.Context, collection string, batch []Object, level string) error {
	if c.grpc != nil {
		return c.importBatchGRPC(ctx, collection, batch, level)
	}
	wire := make([]map[string]any, len(batch))
	for i, o := range batch {
		wire[i] = o.wire(collection)
	}
	var out batchResults
	path := "/v1/batch/objects?consistency_level=" + url.QueryEscape(level)
	op := "import into " + collection
	if err := c.do(ctx, op, http.MethodPost, path, map[string]any{"objects": wire}, &out); err != nil {
		return err
	}
	msgs := out.messages()
	if len(msgs) == 0 {
		return nil
	}
	return c.objectErrors(ctx, op, len(batch), msgs)
}

// batchResults is the answer to a batch import: one result per object.
type batchResults []struct {
	Result struct {
		Errors *struct {
			Error []struct {
				Message string `json:"message"`
			} `json:"error"`
		} `json:"errors"`
	} `json:"result"`
}

func (r batchResults) messages() []string {
	var msgs []string
	for _, o := range r {
		if o.Result.Errors != nil {
			for _, e := range o.Result.Errors.Error {
				msgs = append(msgs, e.Message)
			}
		}
	}
	return msgs
}

// objectErrors classifies per-object failures: when a node is not healthy
// or the first message is the cluster's condition (clusterCondition), they
// are ErrDegraded, worth a retry; otherwise the objects were refused.
func (c *Client) objectErrors(ctx context.Context, op string, n int, msgs []string) error {
	kind := ErrRefused
	if clusterCondition(msgs[0]) || c.Health(ctx) != nil {
		kind = ErrDegraded
	}
	return &apiError{op: op, kind: kind, msg: redact(short(fmt.Sprintf("%d of %d objects failed: %s", len(msgs), n, msgs[0])), c.key)}
}

// retry runs f up to 1+retries times while its error is retryable, backing
// off 250 ms, 500 ms, 1 s, …
func (c *Client) retry(ctx context.Context, retries int, f func() error) error {
	wait := 250 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := f()
		if err == nil || !retryable(err) || attempt >= retries {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (after %v)", ctx.Err(), err)
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// deleteChunk is the largest number of ids one delete request matches
// (well below maxResults).
const deleteChunk = 1000

// Delete removes the objects of the given chunk ids; missing ones are not an
// error.
func (c *Client) Delete(ctx context.Context, collection string, chunkIDs []string, s Settings) error {
	s = s.withDefaults()
	for start := 0; start < len(chunkIDs); start += deleteChunk {
		part := chunkIDs[start:min(start+deleteChunk, len(chunkIDs))]
		if err := c.retry(ctx, s.Retries, func() error { return c.deleteBatch(ctx, collection, part, s.Write) }); err != nil {
			return err
		}
	}
	return nil
}

func (c *Client) deleteBatch(ctx context.Context, collection string, chunkIDs []string, level string) error {
	ids := make([]string, len(chunkIDs))
	for i, id := range chunkIDs {
		ids[i] = ObjectID(id)
	}
	body := map[string]any{
		"match":  map[string]any{"class": collection, "where": idFilter(ids)},
		"output": "minimal",
	}
	var out struct {
		Results struct {
			Failed  int `json:"failed"`
			Objects []struct {
				Errors *struct {
					Error []struct {
						Message string `json:"message"`
					} `json:"error"`
				} `json:"errors"`
			} `json:"objects"`
		} `json:"results"`
	}
	op := "delete from " + collection
	path := "/v1/batch/objects?consistency_level=" + url.QueryEscape(level)
	if err := c.do(ctx, op, http.MethodDelete, path, body, &out); err != nil {
		return err
	}
	if out.Results.Failed > 0 {
		return c.objectErrors(ctx, op, len(ids), []string{fmt.Sprintf("%d deletes failed", out.Results.Failed)})
	}
	return nil
}

func idFilter(ids []string) map[string]any {
	return map[string]any{"path": []string{"id"}, "operator": "ContainsAny", "valueTextArray": ids}
}

// Count returns the number of objects in a collection or alias.
func (c *Client) Count(ctx context.Context, collection string) (int, error) {
	q := fmt.Sprintf("{Aggregate{%s{meta{count}}}}", collection)
	var out map[string][]struct {
		Meta struct {
			Count int `json:"count"`
		} `json:"meta"`
	}
	if err := c.graphql(ctx, "count "+collection, q, "Aggregate", &out); err != nil {
		return 0, err
	}
	rows := out[collection]
	if len(rows) == 0 {
		return 0, nil
	}
	return rows[0].Meta.Count, nil
}

// quote makes a GraphQL string literal.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}
