package main

import (
	"strings"
	"testing"
)

// TestDefaultFusionPerEmbedder: a hybrid query with no fusion setting
// answers with the fusion measured for its embedder, named in the JSON
// answer and in --explain: a transformer model's (adaptive at equal
// weights, a quarter of the dense weight for a query in another language, none
// for one in another script; docs/QUALITY.md) and, unchanged, the
// built-in embedder's. A Chinese query to an English model is BM25's.
func TestDefaultFusionPerEmbedder(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"AUTORAG_EMBEDDER=transformer", "AUTORAG_MODEL=all-minilm-l6-v2-q"}, "adaptive alpha=0.5 code=2.5 foreign=0.25 latin_only feedback=5"},
		{nil, "adaptive alpha=0.7 code=1 foreign=0 file_dense floor=0.15 floor_unknown=0.25 floor_ratio=0.5 feedback=5"},
	} {
		root := t.TempDir()
		writeFile(t, root, "keys.md", "# Signing keys\nRotate the signing keys every ninety days.\n")
		writeFile(t, root, "cache.md", "# Cache\nThe cache evicts the least recently used entry.\n")
		if r := cli(t, tc.env, "--root", root, "refresh"); r.code != 0 {
			t.Fatalf("refresh %v: exit %d\n%s\n(the model comes from `make models`)", tc.env, r.code, r.stderr)
		}
		r := cli(t, tc.env, "--root", root, "query", "--json", "--explain", "rotate the signing keys")
		if r.code != 0 {
			t.Fatalf("query %v: exit %d\n%s", tc.env, r.code, r.stderr)
		}
		m := r.json(t)
		if m["mode"] != "hybrid" || m["fusion"] != tc.want {
			t.Errorf("%v: mode %v, fusion %q; want hybrid, %q", tc.env, m["mode"], m["fusion"], tc.want)
		}
		if ex, _ := m["explain"].(string); !strings.Contains(ex, "fusion "+tc.want) {
			t.Errorf("%v: explain %q does not name the fusion %q", tc.env, ex, tc.want)
		}
		if tc.env == nil {
			continue
		}
		r = cli(t, tc.env, "--root", root, "query", "--json", "--explain", "签名 keys 轮换 密钥 每 九十 天")
		if r.code != 0 {
			t.Fatalf("Chinese query: exit %d\n%s", r.code, r.stderr)
		}
		res := r.json(t)["results"].([]any)
		if len(res) == 0 {
			t.Fatal("Chinese query with an English word: no results")
		}
		for _, x := range res {
			x := x.(map[string]any)
			if ex := x["explain"].(string); !strings.Contains(ex, "(weight 0, min-max over the list; x0 for a query not in English)") {
				t.Errorf("Chinese query to an English model, %v: explain %q, want dense weight 0", x["path"], ex)
			}
		}
	}
}
