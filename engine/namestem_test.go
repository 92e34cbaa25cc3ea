package engine

import (
	"math"
	"testing"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/rank"
)

// TestPathMatchAnalyzer: through the index's own stemmer, a file named
// for an agent noun matches the query's verb and its forms, and a file
// named for the verb the query's agent noun (rank's porterStems table
// stands in for the analyzer in rank's own tests).
func TestPathMatchAnalyzer(t *testing.T) {
	stem := analyze.Stemmer()
	d := rank.DerivedCredit
	for _, c := range []struct {
		query, path string
		want        float64
	}{
		{"logging middleware and access log format", "logger.go", d},
		{"URL routing and resource dispatching", "router.ts", d},
		{"how chunked transfer encoding is parsed", "http_parser.py", d / 2},
		{"request handling", "request_handler.go", (1 + d) / 2},
		{"formatting", "formatter.ts", d},
		{"writing", "writer.go", d},
		{"execution", "executor.kt", d},
		{"JSON parser and tokenizer", "parse.hpp", d},
		{"router", "routing.py", d},
		{"how to use the client", "user.go", 0},
	} {
		got, _ := rank.PathMatch(rank.NewPathQuery(c.query, stem), c.path, stem)
		if math.Abs(got-c.want) > 1e-9 {
			t.Errorf("PathMatch(%q, %s) = %g, want %g", c.query, c.path, got, c.want)
		}
	}
}

// BenchmarkNewPathQuery: a query's path matcher as each code search
// builds it, with a new stemmer (the search's own) each time: its terms,
// and the agent nouns and verbs derived from them.
func BenchmarkNewPathQuery(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = rank.NewPathQuery("how middleware is applied globally and to route groups", analyze.Stemmer())
	}
}
