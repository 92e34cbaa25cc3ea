package rerank

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/autorag/autorag/internal/secreturl"
)

// Formats of the request.
const (
	FormatCohere = "cohere" // Cohere and Jina
	FormatTEI    = "tei"
)

// Config says where the rerank service is.
type Config struct {
	URL     string
	Model   string
	APIKey  string
	Format  string        // "" chooses from the URL
	Timeout time.Duration // per request, answer read included; 0 means 30s
}

// ConfigFromEnv reads the AUTORAG_RERANK_* variables through getenv; ok is
// false when AUTORAG_RERANK_URL is unset.
func ConfigFromEnv(getenv func(string) string) (cfg Config, ok bool, err error) {
	cfg = Config{
		URL: getenv("AUTORAG_RERANK_URL"), Model: getenv("AUTORAG_RERANK_MODEL"),
		APIKey: getenv("AUTORAG_RERANK_API_KEY"), Format: getenv("AUTORAG_RERANK_FORMAT"),
	}
	if cfg.URL == "" {
		return cfg, false, nil
	}
	if t := getenv("AUTORAG_RERANK_TIMEOUT"); t != "" {
		if cfg.Timeout, err = time.ParseDuration(t); err != nil || cfg.Timeout <= 0 {
			return cfg, true, fmt.Errorf("rerank: AUTORAG_RERANK_TIMEOUT %q: want a positive duration such as 5s", t)
		}
	}
	_, err = New(cfg)
	return cfg, true, err
}

// Client calls one rerank endpoint. It is safe for concurrent use.
type Client struct {
	cfg    Config
	shown  string // the URL as printed and stored: secrets masked
	format string
	http   *http.Client
}

// New checks cfg and returns its client.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("rerank: AUTORAG_RERANK_URL %q is not an http(s) URL", secreturl.Redact(cfg.URL))
	}
	format := cfg.Format
	if format == "" {
		format = FormatCohere
		if strings.TrimRight(u.Path, "/") == "/rerank" {
			format = FormatTEI
		}
	}
	if format != FormatCohere && format != FormatTEI {
		return nil, fmt.Errorf("rerank: format %q: want %s or %s", format, FormatCohere, FormatTEI)
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	hc := &http.Client{Timeout: timeout, CheckRedirect: secreturl.CheckRedirect}
	return &Client{cfg: cfg, shown: secreturl.Redact(cfg.URL), format: format, http: hc}, nil
}

// Name identifies the reranker (for cache keys and --explain): format,
// endpoint and model, never the key nor a secret written in the URL.
func (c *Client) Name() string {
	return c.format + ":" + c.shown + "#" + c.cfg.Model
}

// Rerank returns one score per text, in the texts' order (higher is more
// relevant). It fails as a whole.
func (c *Client) Rerank(ctx context.Context, query string, texts []string) ([]float64, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	body, err := json.Marshal(c.request(query, texts))
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.shown, redact(secreturl.Error(err), c.cfg.APIKey))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("read the answer of %s: %w", c.shown, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %s: %s", c.shown, resp.Status, snippet(raw, c.cfg.APIKey))
	}
	return parse(raw, len(texts))
}

func (c *Client) request(query string, texts []string) any {
	if c.format == FormatTEI {
		return struct {
			Query    string   `json:"query"`
			Texts    []string `json:"texts"`
			Truncate bool     `json:"truncate"`
		}{query, texts, true}
	}
	return struct {
		Model     string   `json:"model,omitempty"`
		Query     string   `json:"query"`
		Documents []string `json:"documents"`
		TopN      int      `json:"top_n"`
	}{c.cfg.Model, query, texts, len(texts)}
}

type result struct {
	Index          *int     `json:"index"`
	RelevanceScore *float64 `json:"relevance_score"`
	Score          *float64 `json:"score"`
}

// parse reads either answer: Cohere/Jina's object or TEI's array. Every
// text must get exactly one score.
func parse(raw []byte, n int) ([]float64, error) {
	var results []result
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(t, &results); err != nil {
			return nil, fmt.Errorf("answer: %w", err)
		}
	} else {
		var obj struct {
			Results []result `json:"results"`
		}
		if err := json.Unmarshal(t, &obj); err != nil {
			return nil, fmt.Errorf("answer: %w", err)
		}
		results = obj.Results
	}
	scores := make([]float64, n)
	seen := make([]bool, n)
	for _, r := range results {
		s := r.RelevanceScore
		if s == nil {
			s = r.Score
		}
		if r.Index == nil || s == nil || *r.Index < 0 || *r.Index >= n || seen[*r.Index] {
			return nil, fmt.Errorf("answer has a result without a valid index and score (%d texts sent)", n)
		}
		seen[*r.Index], scores[*r.Index] = true, *s
	}
	if len(results) != n {
		return nil, fmt.Errorf("answer scores %d of the %d texts sent", len(results), n)
	}
	return scores, nil
}

// snippet is the start of an error body, with the key (should a server
// echo it) removed.
func snippet(b []byte, key string) string {
	s := strings.TrimSpace(string(b))
	if key != "" {
		s = strings.ReplaceAll(s, key, "[key]")
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func redact(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), key, "[key]"))
}
