package static

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/embed/static/internal/tab"
)

// TestMatchesReference compares the vectors with the float32 model's, as
// model2vec computes them (testdata/reference.py): the int8 table may move
// a vector only by its rounding.
func TestMatchesReference(t *testing.T) {
	b, err := os.ReadFile("testdata/texts.txt")
	if err != nil {
		t.Fatal(err)
	}
	texts := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var want [][]float64
	rb, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rb, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(texts) {
		t.Fatalf("%d reference vectors for %d texts: run testdata/reference.py", len(want), len(texts))
	}
	got, err := New().Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range texts {
		var dot, nw float64
		for d := range got[i] {
			dot += float64(got[i][d]) * want[i][d]
			nw += want[i][d] * want[i][d]
		}
		if nw == 0 {
			if norm(got[i]) != 0 {
				t.Errorf("%q: reference is the zero vector, got length %.3f", texts[i], norm(got[i]))
			}
			continue
		}
		if cos := dot / math.Sqrt(nw) / norm(got[i]); cos < 0.9995 {
			t.Errorf("%q: cosine with the reference %.5f, want ≥ 0.9995", texts[i], cos)
		}
	}
}

func norm(v []float32) float64 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	return math.Sqrt(n)
}

func TestUnitOrZero(t *testing.T) {
	texts := []string{"", "   ", "😀", "[UNK]", "statins", "a", "!!!"}
	vs, err := New().Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		n := norm(v)
		zero := i < 4 // nothing, or only unknown tokens
		if zero && n != 0 || !zero && math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: length %.6f, want %v", texts[i], n, map[bool]string{true: "0", false: "1"}[zero])
		}
	}
}

// TestBatchesAgree checks that the parallel path gives the vectors the
// serial one does, in order.
func TestBatchesAgree(t *testing.T) {
	e := New()
	var texts []string
	for i := range 40 {
		texts = append(texts, strings.Repeat("statin cholesterol trial ", i%7+1)+string(rune('a'+i%26)))
	}
	batch, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		one, err := e.Embed(context.Background(), []string{text})
		if err != nil {
			t.Fatal(err)
		}
		for d := range one[0] {
			if one[0][d] != batch[i][d] {
				t.Fatalf("text %d: batch and single vectors differ at %d", i, d)
			}
		}
	}
}

func TestEmbedCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New().Embed(ctx, []string{"a", "b"}); err == nil {
		t.Fatal("Embed with a cancelled context succeeded")
	}
}

func TestTableIntact(t *testing.T) {
	tb, err := tab.Open(table)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Verify(); err != nil {
		t.Fatal(err)
	}
}

func TestSimilarMeaningsAreCloser(t *testing.T) {
	vs, err := New().Embed(context.Background(), []string{"car", "automobile", "banana"})
	if err != nil {
		t.Fatal(err)
	}
	dot := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	if near, far := dot(vs[0], vs[1]), dot(vs[0], vs[2]); near <= far {
		t.Errorf("cos(car, automobile) = %.3f ≤ cos(car, banana) = %.3f", near, far)
	}
}

func TestCoverage(t *testing.T) {
	e := New()
	for _, tc := range []struct {
		text string
		want float64
	}{
		{"qwxz vbnm", 0},             // every word in pieces
		{"", 0},                      // no word
		{"?!", 0},                    // punctuation only
		{"heart and qwxz", 2.0 / 3},  // one word in pieces
		{"the heart, the lungs.", 1}, // punctuation does not count
		{"😀 heart", 0.5},             // an unknown token is an unknown word
	} {
		if got := e.Coverage(tc.text); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("Coverage(%q) = %.3f, want %.3f", tc.text, got, tc.want)
		}
	}
}
