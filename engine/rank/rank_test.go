package rank

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/copies"
)

// TestRankModes: bm25 and vector mode keep their one list as it is; hybrid
// fuses both and drops the vector-only hits below the floor.
func TestRankModes(t *testing.T) {
	convex := Fusion{Method: FusionConvex, Alpha: 0.5}
	bm := []Hit{{"a\x000", 4}, {"b\x000", 2}}
	de := []Hit{{"c\x000", 0.9}, {"a\x000", 0.5}, {"d\x000", 0.1}}
	for _, tc := range []struct {
		name        string
		mode        string
		floor       float64
		want        []string
		wantDropped int
	}{
		{"bm25", ModeBM25, 0.3, []string{"a\x000", "b\x000"}, 0},
		{"vector", ModeVector, 0.3, []string{"c\x000", "a\x000", "d\x000"}, 0},
		{"hybrid without floor", ModeHybrid, 0, []string{"a\x000", "c\x000", "b\x000", "d\x000"}, 0},
		{"hybrid with floor", ModeHybrid, 0.3, []string{"a\x000", "c\x000", "b\x000"}, 1},
		{"hybrid floor above every vector-only hit", ModeHybrid, 0.95, []string{"a\x000", "b\x000"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, dropped := Rank(tc.mode, convex, Query{}, tc.floor, bm, de)
			if g := ids(got); !slices.Equal(g, tc.want) || dropped != tc.wantDropped {
				t.Fatalf("ranking %q dropped %d, want %q dropped %d", g, dropped, tc.want, tc.wantDropped)
			}
		})
	}
}

// TestRankSingleListScores: a single list's ranks and scores are the list's.
func TestRankSingleListScores(t *testing.T) {
	got, _ := Rank(ModeVector, Fusion{}, Query{}, 0, nil, []Hit{{"x\x001", 0.7}, {"y\x000", 0.2}})
	want := []Fused{{ID: "x\x001", Score: 0.7, Dense: 0.7, DenseRank: 1}, {ID: "y\x000", Score: 0.2, Dense: 0.2, DenseRank: 2}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestFloor(t *testing.T) {
	f := Fusion{Floor: 0.2, FloorUnknown: 0.5}
	for _, tc := range []struct {
		name      string
		f         Fusion
		bm        []Hit
		knowsNone bool
		want      float64
	}{
		{"bm25 matched", f, []Hit{{"a\x000", 1}}, true, 0.2},
		{"embedder knows a word", f, nil, false, 0.2},
		{"nothing known", f, nil, true, 0.5},
		{"unknown floor lower", Fusion{Floor: 0.6, FloorUnknown: 0.5}, nil, true, 0.6},
		{"no unknown floor", Fusion{Floor: 0.2}, nil, true, 0.2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Floor(tc.f, tc.bm, func() bool { return tc.knowsNone }); got != tc.want {
				t.Fatalf("floor %g, want %g", got, tc.want)
			}
		})
	}
}

// TestTurn: an English query's vector takes the mean of BM25's best
// chunks' vectors and stays unit length; without feedback, or for a query
// in another language, it is the query's own, unchanged.
func TestTurn(t *testing.T) {
	stored := map[string][]float32{"a\x000": {0, 1}, "b\x000": {0, 1}}
	lookup := func([]Hit) (func(string) ([]float32, bool), error) {
		return func(id string) ([]float32, bool) { v, ok := stored[id]; return v, ok }, nil
	}
	bm := []Hit{{"a\x000", 3}, {"b\x000", 2}, {"missing\x000", 1}}
	for _, tc := range []struct {
		name    string
		f       Fusion
		q       Query
		want    []float32
		wantFed int
	}{
		{"feedback", Fusion{Feedback: 5}, Query{}, []float32{float32(1 / math.Sqrt2), float32(1 / math.Sqrt2)}, 2},
		{"one chunk", Fusion{Feedback: 1}, Query{}, []float32{float32(1 / math.Sqrt2), float32(1 / math.Sqrt2)}, 1},
		{"off", Fusion{}, Query{}, []float32{1, 0}, 0},
		{"not english", Fusion{Feedback: 5}, Query{Foreign: true}, []float32{1, 0}, 0},
		{"chinese", Fusion{Feedback: 5}, Query{Script: ScriptCJK}, []float32{1, 0}, 0},
		{"another alphabet", Fusion{Feedback: 5}, Query{Script: ScriptOther}, []float32{1, 0}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := []float32{1, 0}
			got, fed, err := Turn(tc.f, tc.q, q, bm, lookup)
			if err != nil {
				t.Fatal(err)
			}
			if fed != tc.wantFed || len(got) != 2 || math.Abs(float64(got[0]-tc.want[0])) > 1e-6 || math.Abs(float64(got[1]-tc.want[1])) > 1e-6 {
				t.Fatalf("vector %v fed %d, want %v fed %d", got, fed, tc.want, tc.wantFed)
			}
			if q[0] != 1 || q[1] != 0 {
				t.Fatalf("the query's own vector changed: %v", q)
			}
		})
	}
}

// TestPageWalk: the per-file limit, the collapse of identical passages
// into the best-ranked one (AlsoIn) and k.
func TestPageWalk(t *testing.T) {
	texts := map[string]string{
		"a.md\x000": "install the  collector 1.2", "a.md\x001": "second chunk of a",
		"b.md\x000": "install the collector 2.0", "c.md\x000": "something else", "d.md\x000": "more",
	}
	load := func(id, path string, ord int) (Result, error) {
		if _, ok := texts[id]; !ok {
			return Result{}, fmt.Errorf("no chunk %q", id)
		}
		return Result{Path: path, Chunk: ord, Text: texts[id]}, nil
	}
	var ranking []Fused
	for i, id := range []string{"a.md\x000", "a.md\x001", "b.md\x000", "c.md\x000", "d.md\x000"} {
		ranking = append(ranking, Fused{ID: id, Score: float64(10 - i), BM25: float64(10 - i), BM25Rank: i + 1})
	}
	for _, tc := range []struct {
		name          string
		p             Page
		want          []string
		wantCollapsed int
	}{
		{"collapse", Page{K: 3, PerFile: 1, Collapse: true, Mode: ModeBM25}, []string{"a.md#0", "c.md#0", "d.md#0"}, 1},
		{"no collapse", Page{K: 3, PerFile: 1, Mode: ModeBM25}, []string{"a.md#0", "b.md#0", "c.md#0"}, 0},
		{"two per file", Page{K: 3, PerFile: 2, Mode: ModeBM25}, []string{"a.md#0", "a.md#1", "b.md#0"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, collapsed, err := tc.p.Walk(ranking, load)
			if err != nil {
				t.Fatal(err)
			}
			var g []string
			for i, r := range got {
				g = append(g, fmt.Sprintf("%s#%d", r.Path, r.Chunk))
				if r.Rank != i+1 || r.Scores.BM25Rank == nil {
					t.Errorf("result %d: rank %d scores %+v", i, r.Rank, r.Scores)
				}
			}
			if !slices.Equal(g, tc.want) || collapsed != tc.wantCollapsed {
				t.Fatalf("results %q collapsed %d, want %q collapsed %d", g, collapsed, tc.want, tc.wantCollapsed)
			}
			if tc.p.Collapse && (len(got[0].AlsoIn) != 1 || got[0].AlsoIn[0].Path != "b.md") {
				t.Errorf("also in %+v, want b.md", got[0].AlsoIn)
			}
		})
	}
}

// TestTurnCode: BM25's best chunks mostly code keep the query's vector.
func TestTurnCode(t *testing.T) {
	code := Query{IsCode: func(id string) bool { return id != "a.md\x000" }}
	lookup := func([]Hit) (func(string) ([]float32, bool), error) {
		return func(string) ([]float32, bool) { return []float32{0, 1}, true }, nil
	}
	bm := []Hit{{"a.md\x000", 3}, {"b.go\x000", 2}, {"c.go\x000", 1}}
	got, fed, err := Turn(Fusion{Feedback: 3}, code, []float32{1, 0}, bm, lookup)
	if err != nil || fed != 0 || got[0] != 1 || got[1] != 0 {
		t.Fatalf("vector %v fed %d err %v, want the query's own", got, fed, err)
	}
	if _, fed, _ = Turn(Fusion{Feedback: 3}, Query{}, []float32{1, 0}, bm, lookup); fed != 3 {
		t.Fatalf("prose: fed %d, want 3", fed)
	}
}

// TestFuseAdaptiveWeights: adaptive fusion scales the dense weight by the
// code factor for code chunks and by the foreign factor for the query.
func TestFuseAdaptiveWeights(t *testing.T) {
	f := Fusion{Method: FusionAdaptive, Alpha: 0.5, Code: 0.5, Foreign: 0.2}
	de := []Hit{{"a.go\x000", 0.9}, {"b.md\x000", 0.1}}
	isGo := func(id string) bool { return id == "a.go\x000" }
	for _, tc := range []struct {
		name string
		q    Query
		want float64 // a.go's dense weight
	}{
		{"prose query", Query{}, 0.5},
		{"code chunk", Query{IsCode: isGo}, 0.25},
		{"foreign query, code chunk", Query{Foreign: true, IsCode: isGo}, 0.05},
		{"query in another alphabet", Query{Script: ScriptOther}, 0.1},
		{"Chinese query", Query{Script: ScriptCJK}, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Fuse(f, tc.q, nil, de)
			if got[0].ID != "a.go\x000" || math.Abs(got[0].WDense-tc.want) > 1e-12 || math.Abs(got[0].Score-tc.want) > 1e-12 {
				t.Fatalf("a.go: %+v, want dense weight and score %g", got[0], tc.want)
			}
		})
	}
}

// TestPageCopiesOnlyForSiblings: the copy collapse asks for a document's
// signature (which reads its mirror) only when an earlier result sits in a
// sibling folder; the copy in a sibling version folder still collapses.
func TestPageCopiesOnlyForSiblings(t *testing.T) {
	text := "the collector reads spans from the agent and writes them to the store in batches"
	docs := map[string]string{"v1/x.md": text, "v2/x.md": text + " now", "notes/a.md": "other words", "b.md": "more words here"}
	var asked []string
	p := Page{K: 4, PerFile: 1, Collapse: true, Mode: ModeBM25, Copies: func(path string) copies.Signature {
		asked = append(asked, path)
		return copies.Sign(docs[path])
	}}
	load := func(id, path string, ord int) (Result, error) { return Result{Path: path, Chunk: ord, Text: path}, nil }
	var ranking []Fused
	for i, path := range []string{"v2/x.md", "notes/a.md", "b.md", "v1/x.md"} {
		ranking = append(ranking, Fused{ID: path + "\x000", Score: float64(10 - i), BM25: float64(10 - i), BM25Rank: i + 1})
	}
	got, _, err := p.Walk(ranking, load)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || len(got[0].AlsoIn) != 1 || got[0].AlsoIn[0].Path != "v1/x.md" {
		t.Fatalf("results %+v, want v2/x.md with v1/x.md in also_in, then two others", got)
	}
	slices.Sort(asked)
	if !slices.Equal(asked, []string{"v1/x.md", "v2/x.md"}) {
		t.Errorf("signatures asked for %q, want only the two sibling copies", asked)
	}
}

// TestFuseLatinOnly: with LatinOnly a query written mostly in another
// script than Latin, Chinese included, gets no dense weight (an English
// model); a German query keeps the foreign factor, an English one all.
func TestFuseLatinOnly(t *testing.T) {
	f := Fusion{Method: FusionAdaptive, Alpha: 0.5, Code: 1, Foreign: 0.5, LatinOnly: true}
	bm := []Hit{{"b.md\x000", 2}, {"a.md\x000", 1}}
	de := []Hit{{"a.md\x000", 0.9}, {"b.md\x000", 0.1}}
	for _, tc := range []struct {
		name string
		q    Query
		want float64 // the dense weight
	}{
		{"English query", Query{}, 0.5},
		{"German query", Query{Foreign: true}, 0.25},
		{"Chinese query", Query{Script: ScriptCJK}, 0},
		{"Greek query", Query{Script: ScriptOther, Foreign: true}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Fuse(f, tc.q, bm, de)
			for _, x := range got {
				if math.Abs(x.WDense-tc.want) > 1e-12 {
					t.Fatalf("%s: dense weight %g, want %g", x.ID, x.WDense, tc.want)
				}
			}
			if tc.want == 0 && got[0].ID != "b.md\x000" {
				t.Fatalf("ranking %+v, want BM25's order", got)
			}
			var x Fused
			for _, y := range got {
				if y.ID == "a.md\x000" {
					x = y
				}
			}
			if e := why(f, tc.q, x); tc.want < 0.5 && !strings.Contains(e, fmt.Sprintf("x%g for a query not in English", tc.want/0.5)) {
				t.Errorf("explain %q does not name the factor %g", e, tc.want/0.5)
			}
		})
	}
	if s := f.String(); !strings.HasSuffix(s, " latin_only") {
		t.Errorf("fusion %q does not name latin_only (the query cache key)", s)
	}
}
