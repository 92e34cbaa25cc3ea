package engine

import (
	"context"
	"testing"
)

// BenchmarkQueryFiltered is a query with --type and --filter over a tree of 400
// markdown files: the filter's postings, then both lists through the
// filter.
func BenchmarkQueryFiltered(b *testing.B) {
	e := benchEngine(b, 400)
	for i := 0; i < b.N; i++ {
		if _, err := e.Query(context.Background(), QueryOptions{Text: "embedding latency", K: 10, Type: "doc", Filters: []string{"lang=markdown"}}); err != nil {
			b.Fatal(err)
		}
	}
}
