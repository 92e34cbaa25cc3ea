package rank

import (
	"math"
	"testing"
)

func ids(fs []Fused) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.ID)
	}
	return out
}

func TestFuseRRF(t *testing.T) {
	f := Fusion{Method: FusionRRF, K: 60, WBM25: 1, WDense: 1}
	bm := []Hit{{"a\x000", 9}, {"b\x000", 5}, {"c\x000", 1}}
	de := []Hit{{"c\x000", 0.9}, {"a\x000", 0.8}, {"d\x000", 0.1}}
	got := fuse(f, bm, de)
	// a: 1/61 + 1/62; c: 1/63 + 1/61; b: 1/62; d: 1/63.
	want := []string{"a\x000", "c\x000", "b\x000", "d\x000"}
	if g := ids(got); len(g) != 4 || g[0] != want[0] || g[1] != want[1] || g[2] != want[2] || g[3] != want[3] {
		t.Fatalf("order %q, want %q", g, want)
	}
	if math.Abs(got[0].Score-(1.0/61+1.0/62)) > 1e-12 || got[0].BM25Rank != 1 || got[0].DenseRank != 2 {
		t.Errorf("a: %+v", got[0])
	}
	if got[3].BM25Rank != 0 || got[3].DenseRank != 3 {
		t.Errorf("d must be absent from bm25: %+v", got[3])
	}
}

func TestFuseConvex(t *testing.T) {
	f := Fusion{Method: FusionConvex, Alpha: 0.95}
	// Only two BM25 matches: the second must not be scored like a non-match.
	bm := []Hit{{"a\x000", 10}, {"b\x000", 8}}
	de := []Hit{{"c\x000", 0.9}, {"b\x000", 0.5}, {"a\x000", 0.1}}
	got := fuse(f, bm, de)
	score := map[string]float64{}
	for _, x := range got {
		score[x.ID] = x.Score
	}
	if want := 0.95*1 + 0.05*0; math.Abs(score["a\x000"]-want) > 1e-12 {
		t.Errorf("a = %v, want %v", score["a\x000"], want)
	}
	if want := 0.95*0.8 + 0.05*0.5; math.Abs(score["b\x000"]-want) > 1e-12 {
		t.Errorf("b = %v, want %v", score["b\x000"], want)
	}
	if want := 0.05 * 1.0; math.Abs(score["c\x000"]-want) > 1e-12 {
		t.Errorf("c = %v, want %v", score["c\x000"], want)
	}
	if ids(got)[0] != "a\x000" {
		t.Errorf("order %q", ids(got))
	}
}

func TestFuseTiesAreDeterministic(t *testing.T) {
	f := Fusion{Method: FusionRRF, K: 60, WBM25: 1, WDense: 1}
	// b#10 and b#2 tie; ordinal order must be numeric, not textual.
	bm := []Hit{{"b\x0010", 1}}
	de := []Hit{{"b\x002", 1}}
	for i := 0; i < 20; i++ {
		got := ids(fuse(f, bm, de))
		if got[0] != "b\x002" || got[1] != "b\x0010" {
			t.Fatalf("tie order %q", got)
		}
	}
}

func TestFusionValidate(t *testing.T) {
	for _, f := range []Fusion{{Method: "max"}, {Method: FusionRRF}, {Method: FusionConvex, Alpha: 1.5}} {
		if f.Validate() == nil {
			t.Errorf("%+v validated", f)
		}
	}
	for _, f := range []Fusion{{Method: FusionRRF, K: 60, WBM25: 1, WDense: 0.3}, {Method: FusionConvex, Alpha: 0.9}, {Method: FusionAdaptive, Alpha: 0.5, Code: 4, Foreign: 0.5}} {
		if err := f.Validate(); err != nil {
			t.Errorf("%+v: %v", f, err)
		}
	}
}

// fuse is Fuse for a query in English over prose.
func fuse(f Fusion, bm25, dense []Hit) []Fused { return Fuse(f, Query{}, bm25, dense) }

// TestCodeWeight: the dense weight of code chunks grows by Fusion.Code for
// a question in words only; a query of identifiers, a path or an error
// message keeps at most the full weight, and a factor below 1 holds for
// every kind.
func TestCodeWeight(t *testing.T) {
	f := Fusion{Method: FusionAdaptive, Alpha: 0.5, Code: 4}
	for q, want := range map[string]float64{
		"how are cookies parsed": 4, "TypeAdapter": 1, "internal/data/node.go": 1, "func ListenAndServe": 1,
	} {
		if got := CodeWeight(f, Query{Text: q}); got != want {
			t.Errorf("CodeWeight(%q) = %g, want %g", q, got, want)
		}
	}
	f.Code = 0.1
	if got := CodeWeight(f, Query{Text: "TypeAdapter"}); got != 0.1 {
		t.Errorf("CodeWeight with code 0.1 = %g", got)
	}
	xs := []*Fused{{ID: "a.go\x000", BM25: 2, BM25Rank: 1, Dense: 0.5, DenseRank: 2}, {ID: "b.go\x000", Dense: 0.9, DenseRank: 1}}
	q := Query{Text: "how are cookies parsed", IsCode: func(string) bool { return true }}
	scoreAdaptive(Fusion{Method: FusionAdaptive, Alpha: 0.5, Code: 4}, xs, []Hit{{ID: "a.go\x000", Score: 2}}, []Hit{{ID: "b.go\x000", Score: 0.9}, {ID: "a.go\x000", Score: 0.5}}, 1, q)
	if xs[0].WDense != 2 || xs[1].Score <= xs[0].Score {
		t.Errorf("dense weight %g, scores %g (BM25's best) and %g (the dense list's best): the dense list should lead", xs[0].WDense, xs[0].Score, xs[1].Score)
	}
}
