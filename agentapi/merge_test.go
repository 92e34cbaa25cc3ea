package agentapi

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/envelope"
)

func answer(mode string, hits ...[3]float64) *envelope.Query {
	q := &envelope.Query{OK: true, Mode: mode}
	for i, h := range hits { // score, raw bm25 (0: none), raw cosine (0: none)
		r := engine.Result{Rank: i + 1, Path: "f" + string(rune('a'+i)) + ".md", Score: h[0]}
		if h[1] > 0 {
			r.Scores.BM25 = &h[1]
		}
		if h[2] > 0 {
			r.Scores.Vector = &h[2]
		}
		q.Results = append(q.Results, r)
	}
	return q
}

// TestScales: each root's scores are scaled by its best raw match over the
// best of all roots, BM25 unless the answers are vector-only.
func TestScales(t *testing.T) {
	for _, tt := range []struct {
		name    string
		answers []*envelope.Query
		method  string
		want    []float64
	}{
		{"one root keeps its scores", []*envelope.Query{answer("hybrid", [3]float64{1, 8, 0.5})}, MergeScaled, []float64{1}},
		{"bm25 ratio", []*envelope.Query{answer("hybrid", [3]float64{1, 8, 0.5}), answer("hybrid", [3]float64{1, 2, 0.9})}, MergeScaled, []float64{1, 0.25}},
		{"cosine in vector mode", []*envelope.Query{answer("vector", [3]float64{1, 0, 0.8}), answer("vector", [3]float64{1, 0, 0.4})}, MergeScaled, []float64{1, 0.5}},
		{"a root without a BM25 match keeps its own", []*envelope.Query{answer("hybrid", [3]float64{1, 8, 0}), answer("hybrid", [3]float64{0.2, 0, 0.7})}, MergeScaled, []float64{1, 1}},
		{"other methods do not scale", []*envelope.Query{answer("hybrid", [3]float64{1, 8, 0}), answer("hybrid", [3]float64{1, 2, 0})}, MergeScore, []float64{1, 1}},
	} {
		ok := make([]int, len(tt.answers))
		for i := range ok {
			ok[i] = i
		}
		if got := weightsOf("x", tt.answers, ok, tt.method); !cmp.Equal(got, tt.want) {
			t.Errorf("%s: scales %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestMergeOrders: merged results are sorted by scaled score, renumbered,
// cut to k, and keep the root's own score when it was scaled.
func TestMergeOrders(t *testing.T) {
	ms := []*member{{name: "a", e: &engine.Engine{}}, {name: "b", e: &engine.Engine{}}}
	answers := []*envelope.Query{
		answer("hybrid", [3]float64{1, 4, 0}, [3]float64{0.5, 2, 0}),
		answer("hybrid", [3]float64{1, 8, 0}, [3]float64{0.9, 7, 0}, [3]float64{0.1, 1, 0}),
	}
	out, err := merge(WorkspaceSearch{SearchRequest: SearchRequest{Query: "x", K: intp(4)}}, ms, answers, make([]error, 2), MergeScaled)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range out.Results {
		got = append(got, h.Root+"/"+h.Result.Path)
	}
	// b scales by 1, a by 4/8: b/fa 1, b/fb 0.9, a/fa 0.5, a/fb 0.25 (b/fc 0.1 is cut).
	if d := cmp.Diff([]string{"b/fa.md", "b/fb.md", "a/fa.md", "a/fb.md"}, got); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
	if h := out.Results[2]; h.Rank != 3 || h.Score != 0.5 || h.RootScore == nil || *h.RootScore != 1 {
		t.Errorf("a's best: %+v", h)
	}
	if out.Results[0].RootScore != nil {
		t.Errorf("an unscaled result carries root_score: %+v", out.Results[0])
	}
}

// reranked is an answer whose results a reranker scored: each hit is
// {rerank score, raw bm25}.
func reranked(hits ...[2]float64) *envelope.Query {
	q := answer("hybrid")
	for i, h := range hits {
		rr, bm := h[0], h[1]
		r := engine.Result{Rank: i + 1, Path: "f" + string(rune('a'+i)) + ".md", Score: rr}
		r.Scores.Rerank, r.Scores.BM25 = &rr, &bm
		q.Results = append(q.Results, r)
	}
	return q
}

// TestMergeKeepsRerankScores: a reranker's scores are comparable across
// roots (every root asks the same one), so they are merged as they are,
// whatever each root's BM25 (issue 36, item 3); passages it did not score
// follow the ones it did.
func TestMergeKeepsRerankScores(t *testing.T) {
	ms := []*member{{name: "x", e: &engine.Engine{}}, {name: "y", e: &engine.Engine{}}}
	for _, tt := range []struct {
		name string
		x, y *envelope.Query
		want []string
	}{
		{"negative logits", reranked([2]float64{-3, 8}), reranked([2]float64{-8, 2}), []string{"x/fa.md", "y/fa.md"}},
		{"probabilities", reranked([2]float64{0.5, 8}), reranked([2]float64{0.9, 2}), []string{"y/fa.md", "x/fa.md"}},
		{"unscored after scored", answer("hybrid", [3]float64{1, 9, 0}), reranked([2]float64{-8, 2}), []string{"y/fa.md", "x/fa.md"}},
	} {
		for _, method := range []string{MergeScaled, MergeScore, MergeRank, MergeCosine, MergeCoverage, MergeEvidence} {
			out, err := merge(WorkspaceSearch{SearchRequest: SearchRequest{Query: "x", K: intp(4)}}, ms, []*envelope.Query{tt.x, tt.y}, make([]error, 2), method)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range out.Results {
				got = append(got, h.Root+"/"+h.Result.Path)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("%s, merge %s (-want +got):\n%s", tt.name, method, d)
			}
			if h := out.Results[0]; h.Result.Scores.Rerank != nil && (h.Score != *h.Result.Scores.Rerank || h.RootScore != nil) {
				t.Errorf("%s, merge %s: the best's score %v (root score %v), want the reranker's %v as it is", tt.name, method, h.Score, h.RootScore, *h.Result.Scores.Rerank)
			}
		}
	}
}

// texts is an answer whose results hold the given texts, best first.
func texts(ts ...string) *envelope.Query {
	q := answer("hybrid")
	for i, s := range ts {
		q.Results = append(q.Results, engine.Result{Rank: i + 1, Path: "f.md", Score: 1 / float64(i+1), Text: s})
	}
	return q
}

// TestCoverageWeights: a root weighs the mean share of the query's terms
// its best three passages (or as many as it has) hold, cubed, over the
// best root's; a root whose passages hold none of them (found by vectors
// alone) weighs 0.
func TestCoverageWeights(t *testing.T) {
	full := texts("rotate the signing keys", "signing keys are rotated", "rotate keys, signing them")
	third := texts("keys of the cellar", "the keys", "keys")
	none := texts("boil the pasta")
	got := weightsOf("rotate signing keys", []*envelope.Query{full, third, none}, []int{0, 1, 2}, MergeCoverage)
	want := []float64{1, 1.0 / 27, 0}
	if !cmp.Equal(got, want, cmp.Comparer(func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 })) {
		t.Errorf("weights %v, want %v", got, want)
	}
	short := texts("rotate the signing keys") // a root with one passage to give: all of it
	if got := weightsOf("rotate signing keys", []*envelope.Query{full, short}, []int{0, 1}, MergeCoverage); got[1] != 1 {
		t.Errorf("a root's only passage, holding every term: weight %v, want 1", got[1])
	}
}

// TestEvidenceWeights: under MergeEvidence a root's coverage is multiplied by 1
// plus the mean match of its best three files' names with the query
// before the ratios are cubed: of two roots holding every query term,
// the one whose files are named for the question weighs 1, the other
// (1/2)³; the name alone does not outweigh a root holding all the terms
// against one holding a third of them.
func TestEvidenceWeights(t *testing.T) {
	named := func(q *envelope.Query, paths ...string) *envelope.Query {
		for i, p := range paths {
			q.Results[i].Path = p
		}
		return q
	}
	const query = "rotate signing keys"
	full := texts("rotate the signing keys", "signing keys are rotated", "rotate keys, signing them")
	byName := named(texts("rotate the signing keys", "signing keys are rotated", "rotate keys, signing them"), "rotate.go", "signing_keys.go", "keys.go")
	got := weightsOf(query, []*envelope.Query{full, byName}, []int{0, 1}, MergeEvidence)
	if want := []float64{1.0 / 8, 1}; !cmp.Equal(got, want, cmp.Comparer(func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 })) {
		t.Errorf("weights %v, want %v", got, want)
	}
	if got := weightsOf(query, []*envelope.Query{full, byName}, []int{0, 1}, MergeCoverage); got[0] != 1 || got[1] != 1 {
		t.Errorf("coverage weights %v, want [1 1]: names are not coverage's evidence", got)
	}
	third := named(texts("the cellar", "the cellar door", "cellar"), "keys.go", "keys.go", "keys.go")
	if got := weightsOf(query, []*envelope.Query{full, third}, []int{0, 1}, MergeEvidence); got[0] != 1 || got[1] > 0.3 {
		t.Errorf("weights %v, want the root holding every term first, the one named keys.go (a third of them) below 0.3", got)
	}
	// A symbol both roots cover alike: the root whose passage defines it
	// weighs 1, the other 1/(1+½/3)³ (defCredit), in either order.
	prose, code := texts("the engine of the car", "engines", "an engine"), texts("type Engine struct", "engine", "Engine")
	code.Results[0].Defs = []rank.Def{{Name: "Engine", Kind: "type", Line: 1}}
	want := 1 / math.Pow(1+0.5/3, 3) // defCredit ½ on one of three passages
	for _, order := range [][]*envelope.Query{{prose, code}, {code, prose}} {
		got := weightsOf("Engine", order, []int{0, 1}, MergeEvidence)
		if order[0] == code {
			got[0], got[1] = got[1], got[0]
		}
		if math.Abs(got[0]-want) > 1e-9 || got[1] != 1 {
			t.Errorf("prose, code weights %v, want [%.4f 1]", got, want)
		}
	}
}

// TestEvidenceCosine: what coverage and names leave even, the best cosine
// similarity settles, its square root counting; when a root answered
// without one (bm25 mode) no root's counts.
func TestEvidenceCosine(t *testing.T) {
	withCosine := func(cos float64, ts ...string) *envelope.Query {
		q := texts(ts...)
		q.Results[0].Scores.Vector = &cos
		return q
	}
	const query = "evict the entry nobody used for the longest time"
	near, far := withCosine(0.81, "evict the oldest entry"), withCosine(0.64, "evict a tenant, entry hall")
	got := weightsOf(query, []*envelope.Query{far, near}, []int{0, 1}, MergeEvidence)
	if want := []float64{0.8 / 0.9, 1}; !cmp.Equal(got, want, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-9 })) {
		t.Errorf("weights %v, want %v", got, want)
	}
	if got := weightsOf(query, []*envelope.Query{far, texts("evict the oldest entry")}, []int{0, 1}, MergeEvidence); got[0] != 1 || got[1] != 1 {
		t.Errorf("one root without a cosine: weights %v, want [1 1]", got)
	}
}

// TestCoverageMergeNormalizesEachRoot: with several roots each root's
// scores are divided by its best before weighing (hybrid fusion for code
// tops out below 1), so two roots holding every query term interleave;
// one root keeps its scores as they are.
func TestCoverageMergeNormalizesEachRoot(t *testing.T) {
	ms := []*member{{name: "notes", e: &engine.Engine{}}, {name: "code", e: &engine.Engine{}}}
	notes := texts("retry with exponential backoff", "retry with exponential backoff, again", "retry: exponential backoff")
	code := texts("// Retry retries with exponential backoff.")
	code.Results[0].Score = 0.7
	for _, method := range []string{MergeCoverage, MergeEvidence} {
		out, err := merge(WorkspaceSearch{SearchRequest: SearchRequest{Query: "retry exponential backoff", K: intp(3)}}, ms, []*envelope.Query{notes, code}, make([]error, 2), method)
		if err != nil {
			t.Fatal(err)
		}
		if h := out.Results[1]; h.Root != "code" || h.Score != 1 || h.RootScore == nil || *h.RootScore != 0.7 {
			t.Errorf("%s: second %+v, want code's passage at its weight 1 (its own 0.7 in root_score)", method, h)
		}
		one, err := merge(WorkspaceSearch{SearchRequest: SearchRequest{Query: "retry", K: intp(1)}}, ms[1:], []*envelope.Query{code}, make([]error, 1), method)
		if err != nil || one.Results[0].Score != 0.7 || one.Results[0].RootScore != nil {
			t.Errorf("%s: one root: %v %+v, want its own score", method, err, one.Results)
		}
	}
}
