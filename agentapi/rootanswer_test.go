package agentapi

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/upgrade"
)

// fullAnswer is a root's answer with every field a RootAnswer may copy
// set.
func fullAnswer() *envelope.Query {
	q := answer("hybrid", [3]float64{1, 8, 0.5}, [3]float64{0.5, 4, 0.25})
	yes, no := true, false
	at := time.Date(2026, 12, 3, 13, 0, 0, 0, time.UTC)
	q.Fingerprint, q.Generation, q.Cached = "fp1", "g7", true
	q.Reranked, q.RerankError, q.Stale, q.StaleCheckedAt = &no, "reranker down", &yes, &at
	q.Embedder, q.Upgrade = "local/potion", &upgrade.Progress{Target: "transformer/m/384", Done: 3, Total: 9}
	return q
}

// TestRootAnswerWire pins the JSON of what each root said, as a merge of
// two roots (one answering, one failing) and AnswerOf (the CLI's one
// root, which leaves the path, cached and stale to the envelope) write it.
func TestRootAnswerWire(t *testing.T) {
	ms := []*member{
		{name: "x", e: &engine.Engine{Layout: engine.Layout{Root: "/r/x"}}},
		{name: "y", e: &engine.Engine{Layout: engine.Layout{Root: "/r/y"}}},
	}
	r := WorkspaceSearch{SearchRequest: SearchRequest{Query: "x", K: intp(4)}}
	out, err := merge(r, ms, []*envelope.Query{fullAnswer(), nil}, []error{nil, errors.New("disk gone")}, MergeCoverage)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  []RootAnswer
		want string
	}{
		{"merge", out.Roots, `[{"root":"x","path":"/r/x","ok":true,"mode":"hybrid","fingerprint":"fp1","generation":"g7","cached":true,"results":2,"scale":1,"reranked":false,"rerank_error":"reranker down","stale":true,"stale_checked_at":"2026-12-03T13:00:00Z","embedder":"local/potion","upgrade":{"target":"transformer/m/384","done":3,"total":9}},` +
			`{"root":"y","path":"/r/y","ok":false,"results":0,"error":{"code":"failed","message":"disk gone"}}]`},
		{"AnswerOf", AnswerOf("x", fullAnswer()).Roots, `[{"root":"x","path":"","ok":true,"mode":"hybrid","fingerprint":"fp1","generation":"g7","results":2,"reranked":false,"rerank_error":"reranker down","embedder":"local/potion","upgrade":{"target":"transformer/m/384","done":3,"total":9}}]`},
	} {
		b, err := json.Marshal(c.got)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%s roots:\n got %s\nwant %s", c.name, b, c.want)
		}
	}
}
