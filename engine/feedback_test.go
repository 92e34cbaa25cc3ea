package engine

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/engine/rank"
)

// localEngine indexes files with the built-in embedder and the default
// settings.
func localEngine(t *testing.T, files map[string]string) *Engine {
	t.Helper()
	s := DefaultSettings()
	s.Embedder = static.New()
	root := t.TempDir()
	for rel, content := range files {
		writeSource(t, root, rel, content)
	}
	e, err := New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	mustRefresh(t, e)
	return e
}

// vectorScores maps each result's path to its vector similarity.
func vectorScores(t *testing.T, res *QueryResult) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, r := range res.Results {
		if r.Scores.Vector != nil {
			out[r.Path] = *r.Scores.Vector
		}
	}
	return out
}

// TestHybridFeedback: when BM25 matches a single chunk, the hybrid query
// vector is the unit mean of the query's vector and that chunk's, so the
// chunk's similarity c in vector mode becomes sqrt((1+c)/2) in hybrid mode,
// and a chunk on the same topic that shares no word with the query moves
// closer too. Queries in another language and queries whose BM25 chunks are
// code keep the plain vector; without Feedback nothing changes either.
func TestHybridFeedback(t *testing.T) {
	prose := map[string]string{
		"heart.md":  "# Cholesterol\n\nStatins lower blood cholesterol and the risk of heart attacks.\n",
		"lipids.md": "# Lipids\n\nSaturated fat raises serum lipids; arteries harden and coronary disease follows.\n",
		"garden.md": "# Garden\n\nTomatoes need sun, water and a stake to climb.\n",
	}
	e := localEngine(t, prose)
	// The built-in embedder knows "heart", so the default fusion's relative
	// floor (only for queries of no known word) keeps lipids.md, whose
	// similarity this test reads; lipids.md shares no word with the query.
	e.Settings.Fusion = DefaultAdaptive
	const q = "statins heart"
	vec := vectorScores(t, query(t, e, QueryOptions{Text: q, Mode: ModeVector, K: 10}))
	hyb := query(t, e, QueryOptions{Text: q, Mode: ModeHybrid, K: 10, Explain: true})
	if !strings.Contains(hyb.Fusion, "feedback=5") || !strings.HasSuffix(hyb.Explain, "; query vector plus BM25's best chunk") {
		t.Errorf("fusion %q, explain %q: no feedback named", hyb.Fusion, hyb.Explain)
	}
	got := vectorScores(t, hyb)
	for _, p := range []string{"heart.md", "lipids.md"} {
		if _, ok := vec[p]; !ok {
			t.Fatalf("%s has no vector-mode similarity: %v", p, vec)
		}
		if _, ok := got[p]; !ok {
			t.Fatalf("%s has no hybrid similarity: %v", p, got)
		}
	}
	c := vec["heart.md"]
	if want := math.Sqrt((1 + c) / 2); math.Abs(got["heart.md"]-want) > 1e-5 {
		t.Errorf("heart.md: hybrid similarity %.6f, want sqrt((1+%.6f)/2) = %.6f", got["heart.md"], c, want)
	}
	if got["lipids.md"] <= vec["lipids.md"] {
		t.Errorf("lipids.md: hybrid similarity %.6f, not above its vector-mode %.6f", got["lipids.md"], vec["lipids.md"])
	}

	if x := query(t, e, QueryOptions{Text: q, Mode: ModeBM25, Explain: true}).Explain; strings.Contains(x, "feedback") {
		t.Errorf("bm25 mode explains feedback: %q", x)
	}

	// A German question keeps the plain query vector.
	const de = "Statins senken das Cholesterin und die Blutfette"
	vde := vectorScores(t, query(t, e, QueryOptions{Text: de, Mode: ModeVector, K: 10}))
	hde := query(t, e, QueryOptions{Text: de, Mode: ModeHybrid, K: 10, Explain: true})
	if !strings.Contains(hde.Explain, "; no feedback") {
		t.Errorf("German query, explain %q", hde.Explain)
	}
	if len(vectorScores(t, hde)) == 0 {
		t.Errorf("German query: hybrid similarities %v, vector mode %v", vectorScores(t, hde), vde)
	}
	for path, s := range vectorScores(t, hde) {
		if math.Abs(s-vde[path]) > 1e-9 {
			t.Errorf("German query, %s: hybrid similarity %.6f, vector mode %.6f", path, s, vde[path])
		}
	}

	// Without feedback the hybrid similarities are the vector mode's.
	e.Settings.Fusion = DefaultAdaptive
	e.Settings.Fusion.Feedback = 0
	off := query(t, e, QueryOptions{Text: q, Mode: ModeHybrid, K: 10})
	if strings.Contains(off.Fusion, "feedback") {
		t.Errorf("fusion %q names feedback", off.Fusion)
	}
	if s := vectorScores(t, off)["heart.md"]; math.Abs(s-c) > 1e-9 {
		t.Errorf("feedback off: heart.md similarity %.6f, want the vector mode's %.6f", s, c)
	}

	// Code: BM25's best chunks are code, the query vector stays plain.
	code := localEngine(t, map[string]string{
		"stats.py": "def lower_statins(dose):\n    \"\"\"Statins lower cholesterol.\"\"\"\n    return dose / 2\n",
		"fat.py":   "def serum_lipids(fat):\n    return fat * 3\n",
	})
	vc := vectorScores(t, query(t, code, QueryOptions{Text: q, Mode: ModeVector, K: 10}))
	hc := vectorScores(t, query(t, code, QueryOptions{Text: q, Mode: ModeHybrid, K: 10}))
	if len(hc) == 0 {
		t.Errorf("code: hybrid similarities %v, vector mode %v", hc, vc)
	}
	for path, s := range hc {
		if math.Abs(s-vc[path]) > 1e-9 {
			t.Errorf("code, %s: hybrid similarity %.6f, vector mode %.6f", path, s, vc[path])
		}
	}
}

func TestFusionFeedbackSetting(t *testing.T) {
	f := DefaultAdaptive
	if !strings.HasSuffix(f.String(), " feedback=5") {
		t.Errorf("default adaptive fusion %q does not name its feedback", f)
	}
	for _, n := range []int{-1, rank.MaxFeedback + 1} {
		f.Feedback = n
		if err := f.Validate(); err == nil {
			t.Errorf("feedback %d: no error", n)
		}
	}
	f.Feedback = 0
	if err := f.Validate(); err != nil || strings.Contains(f.String(), "feedback") {
		t.Errorf("feedback 0: %v, %q", err, f)
	}
}

// BenchmarkHybridFeedback is a hybrid query with the built-in embedder
// over 2,000 generated documents, with and without the feedback (which
// makes the dense scan wait for BM25).
func BenchmarkHybridFeedback(b *testing.B) {
	dir := b.TempDir()
	writeCorpus(b, dir, 2000)
	s := DefaultSettings()
	s.Embedder = static.New()
	e, err := New(dir, s)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Refresh(b.Context(), RefreshOptions{}); err != nil {
		b.Fatal(err)
	}
	for _, fb := range []int{DefaultAdaptive.Feedback, 0} {
		b.Run(fmt.Sprintf("feedback=%d", fb), func(b *testing.B) {
			e.Settings.Fusion = DefaultAdaptive
			e.Settings.Fusion.Feedback = fb
			for b.Loop() {
				if _, err := e.Query(b.Context(), QueryOptions{Text: "embedding latency of the search index", Mode: ModeHybrid, K: 10}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
