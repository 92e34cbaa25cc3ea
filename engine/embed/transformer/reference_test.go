package transformer

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

type referenceFile struct {
	Sentences []string `json:"sentences"`
	Models    []struct {
		Name    string  `json:"name"`
		Pooling Pooling `json:"pooling"`
		MaxLen  int     `json:"max_len"`
		Cases   []struct {
			IDs    []int32   `json:"ids"`
			ORTF32 []float32 `json:"ort_f32"`
			ORT    []float32 `json:"ort"`
		} `json:"cases"`
	} `json:"models"`
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
	for _, f := range []string{"model.onnx", "model.safetensors"} {
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

// TestReference checks the Go encoder against onnxruntime on the same
// weights (testdata/reference.py): cosine ≥ 0.999 against the float32
// activation graph (the arithmetic done here), and ≥ 0.99 against the
// published int8 graph, whose activations onnxruntime quantizes too.
func TestReference(t *testing.T) {
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref referenceFile
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for _, m := range ref.Models {
		t.Run(m.Name, func(t *testing.T) {
			model, err := LoadFile(weightFile(t, m.Name), Shape{Heads: 12, MaxLen: m.MaxLen}, m.Pooling)
			if err != nil {
				t.Fatal(err)
			}
			var seqs [][]int32
			for _, c := range m.Cases {
				seqs = append(seqs, c.IDs)
			}
			got, err := model.Run(context.Background(), seqs, nil)
			if err != nil {
				t.Fatal(err)
			}
			worst32, worst8 := 1.0, 1.0
			for i, c := range m.Cases {
				worst32 = min(worst32, cosine(got[i], c.ORTF32))
				if c.ORT != nil {
					worst8 = min(worst8, cosine(got[i], c.ORT))
				}
				if cs := cosine(got[i], c.ORTF32); cs < 0.999 {
					t.Errorf("sentence %d (%d tokens): cosine %.6f to onnxruntime (float32 activations), want ≥ 0.999", i, len(c.IDs), cs)
				}
				if c.ORT != nil {
					if cs := cosine(got[i], c.ORT); cs < 0.99 {
						t.Errorf("sentence %d (%d tokens): cosine %.6f to onnxruntime (int8 activations), want ≥ 0.99", i, len(c.IDs), cs)
					}
				}
			}
			t.Logf("lowest cosine to onnxruntime: %.6f (float32 activations), %.6f (int8 activations)", worst32, worst8)
		})
	}
}
