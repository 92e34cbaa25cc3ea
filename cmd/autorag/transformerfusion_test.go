package main

import (
	"math"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/models"
)

// TestCatalogModelFusion: each catalog model's default fusion, as a query
// through the CLI's embedder would rank with it. The values are those the
// fusion had when it was read off the identity string (before the catalog
// carried the models' traits): English models keep a quarter of the dense
// weight for a query in another language (bge a half, measured) and none
// for another script, a model without a query prefix turns its query
// vector by BM25's best chunks, the multilingual model keeps the full
// weight everywhere, and the models measured on code weigh its dense list
// more for a question over code (MiniLM 2.5, bge 4). A model added to the catalog needs its line here.
func TestCatalogModelFusion(t *testing.T) {
	want := map[string]string{
		"all-minilm-l6-v2":         "adaptive alpha=0.5 code=1 foreign=0.25 latin_only feedback=5",
		"all-minilm-l6-v2-q":       "adaptive alpha=0.5 code=2.5 foreign=0.25 latin_only feedback=5",
		"bge-small-en-v1.5-q":      "adaptive alpha=0.5 code=4 foreign=0.5 latin_only",
		"e5-small-v2-q":            "adaptive alpha=0.5 code=1 foreign=0.25 latin_only",
		"multilingual-e5-small-q4": "adaptive alpha=0.5 code=1 foreign=1",
	}
	for _, m := range models.Catalog() {
		e, err := newTransformer(m.Name)
		if err != nil {
			t.Fatal(err)
		}
		f := engine.DefaultFusion(e.Identity())
		if got, ok := want[m.Name]; !ok || f.String() != got {
			t.Errorf("default fusion of %s: %s, want %q", m.Name, f, got)
		}
		if err := f.Validate(); err != nil {
			t.Errorf("default fusion of %s: %v", m.Name, err)
		}
	}
}

// TestOpenAIFusionIgnoresModelName: an OpenAI-compatible embedder's model
// is not in the catalog; whatever its name says (multilingual, e5, a query
// prefix), its default stays reciprocal rank fusion at equal weights, with
// no language rule.
func TestOpenAIFusionIgnoresModelName(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_API_KEY", "sk-test")
	for _, name := range []string{"text-embedding-3-small", "intfloat/multilingual-e5-small", "bge-small-en-v1.5-q"} {
		t.Setenv("OPENAI_EMBEDDING_MODEL", name)
		e, err := newEmbedder("openai", "")
		if err != nil {
			t.Fatal(err)
		}
		if got := engine.DefaultFusion(e.Identity()).String(); got != "rrf k=60 w=1:1" {
			t.Errorf("default fusion of OpenAI-compatible model %s: %s, want rrf k=60 w=1:1", name, got)
		}
	}
}

// TestTransformerFusionMultilingualScript: a hybrid query written in
// another script (Russian) keeps the full dense weight with the
// multilingual model, whose catalog entry says it reads it, and gets none
// with an English model: the JSON answer names the fusion, each result's
// explain its dense weight, and the scores show it (the best vector hit
// gains the whole dense half, 0.5, with the multilingual model; with the
// English model every score is BM25's share alone).
func TestTransformerFusionMultilingualScript(t *testing.T) {
	for _, tc := range []struct {
		model, fusion, weight string
		dense                 float64 // what the best vector hit gains
	}{
		{"multilingual-e5-small-q4", "adaptive alpha=0.5 code=1 foreign=1", "(weight 0.5, min-max over the list)", 0.5},
		{"all-minilm-l6-v2-q", "adaptive alpha=0.5 code=2.5 foreign=0.25 latin_only feedback=5", "(weight 0, min-max over the list; x0 for a query not in English)", 0},
	} {
		root := t.TempDir()
		writeFile(t, root, "moskva.md", "# Москва\nМосква — столица России и её крупнейший город.\n")
		writeFile(t, root, "uzhin.md", "# Ужин\nМакароны варят десять минут в подсолённой воде.\n")
		writeFile(t, root, "keys.md", "# Signing keys\nRotate the signing keys every ninety days.\n")
		env := []string{"AUTORAG_EMBEDDER=transformer", "AUTORAG_MODEL=" + tc.model}
		if r := cli(t, env, "--root", root, "refresh"); r.code != 0 {
			t.Fatalf("refresh with %s: exit %d\n%s\n(the model comes from `make models`)", tc.model, r.code, r.stderr)
		}
		r := cli(t, env, "--root", root, "query", "--json", "--explain", "Какой город столица страны?")
		if r.code != 0 {
			t.Fatalf("query with %s: exit %d\n%s", tc.model, r.code, r.stderr)
		}
		m := r.json(t)
		if m["mode"] != "hybrid" || m["fusion"] != tc.fusion {
			t.Errorf("%s: mode %v, fusion %q; want hybrid, %q", tc.model, m["mode"], m["fusion"], tc.fusion)
		}
		res := m["results"].([]any)
		if len(res) == 0 {
			t.Fatalf("%s: no results", tc.model)
		}
		maxB, top := 0.0, -1
		for i, x := range res {
			sc := x.(map[string]any)["scores"].(map[string]any)
			if b, ok := sc["bm25"].(float64); ok {
				maxB = max(maxB, b)
			}
			if sc["vector_rank"] == 1.0 {
				top = i
			}
		}
		for i, x := range res {
			x := x.(map[string]any)
			if ex := x["explain"].(string); !strings.Contains(ex, tc.weight) {
				t.Errorf("%s, %v: explain %q, want the dense weight %s", tc.model, x["path"], ex, tc.weight)
			}
			bm25 := 0.0
			if b, ok := x["scores"].(map[string]any)["bm25"].(float64); ok {
				bm25 = 0.5 * b / maxB
			}
			if i == top {
				if gain := x["score"].(float64) - bm25; math.Abs(gain-tc.dense) > 1e-6 {
					t.Errorf("%s: the best vector hit %v gains %.6f from the dense list, want %g", tc.model, x["path"], gain, tc.dense)
				}
			}
		}
		if top < 0 {
			t.Errorf("%s: no result is the vector list's first", tc.model)
		}
	}
}
