package rank

import (
	"fmt"
	"math"
	"strings"
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

// TestFuseAdaptiveFileDense: a code chunk's dense part is its file's best
// similarity, so the chunk BM25 ranks first in a file whose other chunk
// the dense list ranks first carries both signals; a prose chunk keeps
// its own.
func TestFuseAdaptiveFileDense(t *testing.T) {
	f := Fusion{Method: FusionAdaptive, Alpha: 0.7, Code: 1, FileDense: true}
	isCode := func(id string) bool { return !strings.HasPrefix(id, "doc.md") }
	q := Query{IsCode: isCode}
	bm := []Hit{{"a.go\x000", 10}, {"b.go\x000", 9.5}, {"doc.md\x000", 9.5}}
	de := []Hit{{"a.go\x001", 0.9}, {"doc.md\x001", 0.9}, {"b.go\x000", 0.6}, {"c.go\x000", 0.1}}
	got := Fuse(f, q, bm, de)
	score := map[string]float64{}
	for _, x := range got {
		score[x.ID] = x.Score
	}
	// a.go#0: 0.7·1 + 0.3·1 (a.go#1's similarity, the top of the scale).
	if want := 1.0; math.Abs(score["a.go\x000"]-want) > 1e-12 || got[0].ID != "a.go\x000" {
		t.Fatalf("a.go#0 scored %v (ranking %q), want %v and first", score["a.go\x000"], ids(got), want)
	}
	// doc.md#0 is prose: BM25 alone, below b.go#0 with its own similarity.
	if want := 0.7 * 0.95; math.Abs(score["doc.md\x000"]-want) > 1e-12 {
		t.Errorf("doc.md#0 scored %v, want %v (no similarity of its file's other chunk)", score["doc.md\x000"], want)
	}
	if want := 0.7*0.95 + 0.3*0.625; math.Abs(score["b.go\x000"]-want) > 1e-12 {
		t.Errorf("b.go#0 scored %v, want %v (its own similarity, the file's best)", score["b.go\x000"], want)
	}
	f.FileDense = false
	if x := Fuse(f, q, bm, de); x[0].ID != "b.go\x000" || x[0].FileDenseRank != 0 {
		t.Errorf("without FileDense: ranking %q, want b.go#0 first, scored chunk by chunk", ids(x))
	}
	if got[0].FileDenseRank != 1 || got[0].FileDense != 0.9 {
		t.Errorf("a.go#0 names the file's best %d %v, want vector rank 1 score 0.9", got[0].FileDenseRank, got[0].FileDense)
	}
	if e := got[0].explainAdaptive(f, q, func(n string, r int, s float64) string { return n }); !strings.Contains(e, "the file's best: vector rank 1 score 0.9000") {
		t.Errorf("explain %q does not name the file's best chunk", e)
	}
}

// BenchmarkFuseAdaptiveCode: adaptive fusion of a code query's lists at
// the engine's depths (FetchK files of BM25, DenseRef dense chunks), 4
// chunks a file.
func BenchmarkFuseAdaptiveCode(b *testing.B) {
	f := Fusion{Method: FusionAdaptive, Alpha: 0.7, Code: 1, FileDense: true}
	q := Query{IsCode: func(string) bool { return true }}
	var bm, de []Hit
	for i := range 300 {
		bm = append(bm, Hit{fmt.Sprintf("src/f%d.go\x00%d", i/3, i%3), float64(300 - i)})
	}
	for i := range DenseRef {
		de = append(de, Hit{fmt.Sprintf("src/f%d.go\x00%d", (i*7)%250, i%4), 1 - float64(i)/DenseRef})
	}
	b.ReportAllocs()
	for b.Loop() {
		Fuse(f, q, bm, de)
	}
}
