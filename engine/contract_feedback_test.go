package engine

import (
	"strings"
	"testing"
)

// TestContractHybridFeedback: on both backends a hybrid query's vector
// takes feedback from BM25's best chunks (Fusion.Feedback): the answer says
// so, and the best BM25 chunk's vector score is higher in hybrid mode than
// in vector mode, where the query vector is the plain one.
func TestContractHybridFeedback(t *testing.T) {
	forBackends(t, func(t *testing.T, h *contractRoot) {
		h.writeCorpus()
		h.refresh(RefreshOptions{})
		const text = "grey heron fishes at dawn"
		hy, err := h.e.Query(h.ctx, QueryOptions{Text: text, Mode: ModeHybrid, K: 5, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(hy.Fusion, "feedback=5") || !strings.Contains(hy.Explain, "plus BM25's best chunk") {
			t.Fatalf("fusion %q, explain %q: want the query vector plus BM25's best chunk", hy.Fusion, hy.Explain)
		}
		vec, err := h.e.Query(h.ctx, QueryOptions{Text: text, Mode: ModeVector, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		top := hy.Results[0]
		if top.Path != "birds/heron.md" || top.Scores.Vector == nil {
			t.Fatalf("hybrid top result %s (vector score %v), want birds/heron.md with a vector score", top.Path, top.Scores.Vector)
		}
		found := false
		for _, r := range vec.Results {
			if r.Path != top.Path || r.Scores.Vector == nil {
				continue
			}
			found = true
			if *r.Scores.Vector >= *top.Scores.Vector {
				t.Errorf("vector score of %s: %.4f in vector mode, %.4f in hybrid: feedback did not turn the query towards it",
					r.Path, *r.Scores.Vector, *top.Scores.Vector)
			}
		}
		if !found {
			t.Errorf("vector mode did not find %s among %d results: nothing to compare the hybrid score with", top.Path, len(vec.Results))
		}
	})
}
