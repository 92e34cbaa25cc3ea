package static

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/embed/static/internal/tab"
)

// TestMatchesReference compares the vectors without fallback vectors with
// the float32 model's, as model2vec computes them (testdata/reference.py):
// the int8 table may move a vector only by its rounding.
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
	e, err := NewVariant("plain")
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Embed(context.Background(), texts)
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

func TestFallbackNorm(t *testing.T) {
	e := New()
	norms := make([]float64, e.tab.Rows())
	for i := range norms {
		scale, q := e.tab.Row(i)
		var ss float64
		for d := range Dims {
			x := float64(scale) * float64(int8(q[d]))
			ss += x * x
		}
		norms[i] = math.Sqrt(ss)
	}
	slices.Sort(norms)
	if med := norms[len(norms)/2]; math.Abs(med-fallbackNorm) > 1 {
		t.Errorf("median row length %.2f, fallbackNorm %d", med, fallbackNorm)
	}
}

// TestFallback checks that words the vocabulary only spells out get
// vectors that meet when the words do, and differ when they do not.
func TestFallback(t *testing.T) {
	e := New()
	texts := []string{
		"ใครพ่ายแพ้ให้แก่ทีมบรอนคอส", "ทีมบรอนคอส", "สวัสดีชาวโลก", // Thai: unknown runs
		"من الذي خسر أمام البرونكوس", "البرونكوس", "مرحبا بالعالم", // Arabic: spelled out
		"مرحبا", "hello",
	}
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	dot := func(i, j int) (s float64) {
		for d := range vs[i] {
			s += float64(vs[i][d]) * float64(vs[j][d])
		}
		return s
	}
	for i, v := range vs {
		if n := norm(v); math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: length %.4f, want 1", texts[i], n)
		}
	}
	for _, g := range [][3]int{{0, 1, 2}, {3, 4, 5}} {
		if near, far := dot(g[0], g[1]), dot(g[0], g[2]); near < 0.3 || near <= far+0.2 {
			t.Errorf("%q: cosine %.3f with %q, %.3f with %q: want the shared word to count", texts[g[0]], near, texts[g[1]], far, texts[g[2]])
		}
	}
	if c := dot(6, 7); math.Abs(c) > 0.3 {
		t.Errorf("cos(مرحبا, hello) = %.3f: a fallback vector should be near-orthogonal to a word's", c)
	}
}

func TestSpelledOut(t *testing.T) {
	for _, tc := range []struct {
		word   string
		pieces int
		unk    bool
		want   bool
	}{
		{"heart", 1, false, false},
		{"statins", 2, false, false}, // stat ##ins: real pieces
		{"qwxz", 4, false, false},    // Latin: its pieces' rows
		{"λογος", 4, false, true},
		{"kaybetmıs", 7, false, true}, // ı is not ASCII
		{"من", 2, false, true},
		{"ใคร", 1, true, true},
		{"😀", 1, true, false}, // no letter: dropped as model2vec drops it
		{",", 1, false, false},
	} {
		if got := spelledOut([]byte(tc.word), tc.pieces, tc.unk); got != tc.want {
			t.Errorf("spelledOut(%q, %d, %v) = %v, want %v", tc.word, tc.pieces, tc.unk, got, tc.want)
		}
	}
}
