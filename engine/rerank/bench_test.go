package rerank

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// passages are n texts of the engine's chunk size (2,400 characters), each
// holding some of the query's words.
func passages(n int) []string {
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for b.Len() < 2400 {
			fmt.Fprintf(&b, "passage %d says how to rotate the signing keys of service %d. ", i, b.Len())
		}
		out[i] = b.String()[:2400]
	}
	return out
}

// BenchmarkRerank30 is the client's cost of re-scoring the default 30
// candidates against a loopback server speaking each wire format, which
// answers at once: what --rerank adds to a query beyond the model's own
// time (a real cross-encoder on 30 passages of 512 tokens takes far
// longer).
func BenchmarkRerank30(b *testing.B) {
	texts := passages(30)
	for _, tc := range []struct {
		name string
		url  func() (string, func())
		cfg  Config
	}{
		{"tei", func() (string, func()) { s := tei(b); return s.URL + "/rerank", s.Close }, Config{}},
		{"cohere", func() (string, func()) { s := cohere(b); return s.URL + "/v2/rerank", s.Close }, Config{Model: "rerank-v3.5", APIKey: key}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			url, done := tc.url()
			defer done()
			cfg := tc.cfg
			cfg.URL = url
			c, err := New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				scores, err := c.Rerank(ctx, "rotate signing keys", texts)
				if err != nil || len(scores) != len(texts) {
					b.Fatalf("rerank: %v (%d scores)", err, len(scores))
				}
			}
		})
	}
}
