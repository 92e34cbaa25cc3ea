package transformer

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/engine/embed/transformer/internal/qgemm"
)

type referenceFile struct {
	Sentences []string         `json:"sentences"`
	Models    []referenceModel `json:"models"`
}

type referenceModel struct {
	Name    string  `json:"name"`
	Pooling Pooling `json:"pooling"`
	MaxLen  int     `json:"max_len"`
	Cases   []struct {
		IDs    []int32   `json:"ids"`
		ORTF32 []float32 `json:"ort_f32"`
		ORT    []float32 `json:"ort"`
	} `json:"cases"`
}

// weightFile is where `make models` put a model's weights.
func weightFile(t *testing.T, name string) string {
	t.Helper()
	p, err := installedWeights(name)
	if err != nil {
		t.Fatalf("%v: run `make models`", err)
	}
	return p
}

func installedWeights(name string) (string, error) {
	dir := os.Getenv("AUTORAG_MODELS_DIR")
	if dir == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(c, "autorag", "models")
	}
	for _, f := range []string{"model.onnx", "model.safetensors", e5File} {
		p := filepath.Join(dir, name, f)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("model %s is not installed in %s", name, dir)
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

func readReference(t *testing.T) referenceFile {
	t.Helper()
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref referenceFile
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

// arithmetics are the forward passes tested: float32 and int8 products.
var arithmetics = []bool{false, true}

// portableTokens bounds the sentences the int8 path is tested on where the
// CPU has no AVX-512 VNNI: there its products run through qgemm's portable
// Go kernel, seconds a sentence at 512 tokens.
const portableTokens = 20

// testedAt says whether a sequence of n tokens is run with int8 products
// on this CPU.
func testedAt(n int, int8 bool) bool {
	return !int8 || qgemm.Available() || n <= portableTokens
}

// loadWith loads a model for the int8 or the float32 products.
func loadWith(t *testing.T, name string, maxLen int, pooling Pooling, int8 bool) *Model {
	t.Helper()
	saved := int8Products
	int8Products = int8
	defer func() { int8Products = saved }()
	m, err := LoadFile(weightFile(t, name), Shape{Heads: 12, MaxLen: maxLen}, pooling)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// referenceRuns holds the vectors of the reference sentences per model and
// arithmetic, computed once for the tests that compare them.
var referenceRuns = map[string][][]float32{}

// referenceVectors runs model m of the reference file over its sentences
// with int8 or float32 products; a sentence not testedAt this CPU gets nil.
func referenceVectors(t *testing.T, m referenceModel, int8 bool) [][]float32 {
	t.Helper()
	key := fmt.Sprintf("%s/%v", m.Name, int8)
	if vs, ok := referenceRuns[key]; ok {
		return vs
	}
	var seqs [][]int32
	var at []int
	for i, c := range m.Cases {
		if testedAt(len(c.IDs), int8) {
			seqs = append(seqs, c.IDs)
			at = append(at, i)
		}
	}
	got, err := loadWith(t, m.Name, m.MaxLen, m.Pooling, int8).Run(context.Background(), seqs, nil)
	if err != nil {
		t.Fatal(err)
	}
	vs := make([][]float32, len(m.Cases))
	for j, i := range at {
		vs[i] = got[j]
	}
	referenceRuns[key] = vs
	return vs
}

// TestReference checks the Go encoder against onnxruntime on the same
// weights (testdata/reference.py). The float32 path: cosine ≥ 0.999 to
// the float32 activation graph (the same arithmetic) and ≥ 0.99 to the
// published int8 graph, whose activations onnxruntime quantizes per
// tensor. The int8 path (activations quantized per row): ≥ 0.995 to the
// float32 graph and ≥ 0.98 to onnxruntime's int8 run, a quantization of
// its own (onnxruntime's int8 run is 0.9926 from its float32 one).
func TestReference(t *testing.T) {
	ref := readReference(t)
	for _, int8 := range arithmetics {
		want32, want8 := 0.999, 0.99
		if int8 {
			want32, want8 = 0.995, 0.98
		}
		for _, m := range ref.Models {
			t.Run(fmt.Sprintf("%s/int8=%v", m.Name, int8), func(t *testing.T) {
				got := referenceVectors(t, m, int8)
				worst32, worst8 := 1.0, 1.0
				for i, c := range m.Cases {
					if got[i] == nil {
						continue // not testedAt this CPU
					}
					cs := cosine(got[i], c.ORTF32)
					worst32 = min(worst32, cs)
					if cs < want32 {
						t.Errorf("sentence %d (%d tokens): cosine %.6f to onnxruntime (float32 activations), want ≥ %g", i, len(c.IDs), cs, want32)
					}
					if c.ORT == nil {
						continue
					}
					cs = cosine(got[i], c.ORT)
					worst8 = min(worst8, cs)
					if cs < want8 {
						t.Errorf("sentence %d (%d tokens): cosine %.6f to onnxruntime (int8 activations), want ≥ %g", i, len(c.IDs), cs, want8)
					}
				}
				t.Logf("lowest cosine to onnxruntime: %.6f (float32 activations), %.6f (int8 activations)", worst32, worst8)
			})
		}
	}
}

// TestInt8MatchesFloat holds the int8 products to the float32 ones on the
// reference sentences (3 to 512 tokens; without AVX-512 VNNI, up to
// portableTokens): cosine ≥ 0.995 for every sentence of every model.
func TestInt8MatchesFloat(t *testing.T) {
	ref := readReference(t)
	for _, m := range ref.Models {
		t.Run(m.Name, func(t *testing.T) {
			f32, i8 := referenceVectors(t, m, false), referenceVectors(t, m, true)
			worst := 1.0
			for i, c := range m.Cases {
				if i8[i] == nil {
					continue // not testedAt this CPU
				}
				cs := cosine(f32[i], i8[i])
				worst = min(worst, cs)
				if cs < 0.995 {
					t.Errorf("sentence %d (%d tokens): int8 products at cosine %.6f from float32, want ≥ 0.995", i, len(c.IDs), cs)
				}
			}
			t.Logf("lowest cosine of int8 to float32 products: %.6f", worst)
		})
	}
}

// TestInt8OddLengths runs the int8 products at lengths that leave partial
// tiles, panels and vectors everywhere (1 token up to one past a block of
// attention rows) and holds them to the float32 products.
func TestInt8OddLengths(t *testing.T) {
	var seqs [][]int32
	for _, n := range []int{1, 2, 13, 33, attnRows + 1} {
		if testedAt(n, true) {
			seqs = append(seqs, syntheticIDs(max(n, 2), n)[:n])
		}
	}
	var vs [2][][]float32
	for i, int8 := range []bool{false, true} {
		var err error
		if vs[i], err = loadWith(t, "bge-small-en-v1.5-q", 512, PoolCLS, int8).Run(context.Background(), seqs, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range seqs {
		cs := cosine(vs[0][i], vs[1][i])
		if cs < 0.995 {
			t.Errorf("%d tokens: int8 products at cosine %.6f from float32, want ≥ 0.995", len(s), cs)
		}
		t.Logf("%d tokens: cosine %.6f", len(s), cs)
	}
}
