package weaviate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/autorag/autorag/internal/secreturl"
)

// The client speaks REST and GraphQL over net/http rather than linking
// github.com/weaviate/weaviate-go-client/v5: the backend needs a dozen calls,
// and the client library pulls in go-openapi, gRPC and OpenTelemetry, which
// grows the binary and the start-up of every autorag command (figures in
// docs/BENCHMARKS.md, "Weaviate backend").

// Config says how to reach a cluster.
type Config struct {
	// URL of any node's REST endpoint, e.g. http://127.0.0.11:18080.
	URL string
	// APIKey, when set, is sent as a bearer token. It never appears in an
	// error or a log line.
	APIKey string
	// Timeout bounds each HTTP request; 0 means 60 seconds.
	Timeout time.Duration
	// GRPC, when set, is the host:port of the node's gRPC API (Weaviate's
	// GRPC_PORT): imports then use the gRPC batch API (grpc.go).
	GRPC string
}

// Client calls one Weaviate cluster. It is safe for concurrent use.
type Client struct {
	base string
	key  string
	hc   *http.Client
	grpc *grpcConn // nil: imports over REST
}

// New returns a client for cfg. It does not contact the cluster.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(cfg.URL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("weaviate url %q: want http(s)://host:port", secreturl.Redact(cfg.URL))
	}
	if u.User != nil {
		return nil, errors.New("weaviate url: credentials in the url are not supported; use the api key")
	}
	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	// Go's default transport keeps 2 idle connections per host: concurrent
	// searches (a server's clients, a search's parallel lists) would open a
	// new connection for most requests.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 64, 64
	c := &Client{base: u.String(), key: cfg.APIKey, hc: &http.Client{Timeout: timeout, Transport: tr, CheckRedirect: secreturl.CheckRedirect}}
	if cfg.GRPC != "" {
		if err := checkGRPCAddr(cfg.GRPC); err != nil {
			return nil, err
		}
		c.grpc = &grpcConn{addr: cfg.GRPC}
	}
	return c, nil
}

// do sends one request and decodes a JSON answer into out (when not nil).
// Every error it returns is an *apiError with the key redacted.
func (c *Client) do(ctx context.Context, op, method, path string, body, out any) error {
	req, err := c.request(ctx, method, path, body)
	if err != nil {
		return &apiError{op: op, kind: ErrRefused, msg: redact(err.Error(), c.key)}
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", op, ctx.Err())
		}
		return &apiError{op: op, kind: ErrUnreachable, msg: redact(err.Error(), c.key)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return &apiError{op: op, kind: ErrUnreachable, msg: redact(err.Error(), c.key)}
	}
	if resp.StatusCode >= 300 {
		msg := errorText(data)
		return &apiError{op: op, status: resp.StatusCode, kind: kindOf(resp.StatusCode, msg), msg: redact(msg, c.key)}
	}
	if out == nil || len(data) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return &apiError{op: op, kind: ErrRefused, msg: "decode answer: " + redact(err.Error(), c.key)}
	}
	return nil
}

func (c *Client) request(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	return req, nil
}

// errorText extracts Weaviate's error messages ({"error":[{"message":…}]})
// or returns the body, shortened.
func errorText(data []byte) string {
	var e struct {
		Error []struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil && len(e.Error) > 0 {
		msgs := make([]string, len(e.Error))
		for i, m := range e.Error {
			msgs[i] = m.Message
		}
		return short(strings.Join(msgs, "; "))
	}
	return short(strings.TrimSpace(string(data)))
}

// short cuts a server message to 300 bytes: errors echo whole requests.
func short(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// Ready reports whether the node behind the URL is ready to serve.
func (c *Client) Ready(ctx context.Context) error {
	return c.do(ctx, "ready", http.MethodGet, "/v1/.well-known/ready", nil, nil)
}

// Node is one cluster member as /v1/nodes reports it.
type Node struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

// Nodes lists the cluster's members and their health.
func (c *Client) Nodes(ctx context.Context) ([]Node, error) {
	var out struct {
		Nodes []Node `json:"nodes"`
	}
	err := c.do(ctx, "list nodes", http.MethodGet, "/v1/nodes", nil, &out)
	return out.Nodes, err
}

// Health returns nil when every member of the cluster is HEALTHY, an error
// wrapping ErrDegraded naming the others, or the error of the request. The
// members are the Raft voters, not just the nodes /v1/nodes lists: a node
// that memberlist has dropped (killed, or not yet rejoined after a restart)
// is missing from that list, and Weaviate then resolves each shard's replica
// set to the nodes it can reach and counts QUORUM among those, so a write
// "succeeds" on one replica of two. Writers check Health around their
// writes for that reason (see Pair).
func (c *Client) Health(ctx context.Context) error {
	_, err := c.health(ctx)
	return err
}

// health is Health; it also returns the Raft statistics it read.
func (c *Client) health(ctx context.Context) ([]raftNode, error) {
	nodes, err := c.Nodes(ctx)
	if err != nil {
		return nil, err
	}
	stats, err := c.statistics(ctx)
	if err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	var bad []string
	for _, n := range nodes {
		listed[n.Name] = true
		if n.Status != "HEALTHY" {
			bad = append(bad, n.Name+" "+n.Status)
		}
	}
	for _, v := range votersOf(stats) {
		if !listed[v] {
			bad = append(bad, v+" not a member")
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return nil, &apiError{op: "health", kind: ErrDegraded, msg: strings.Join(bad, ", ")}
	}
	return stats, nil
}
