package engine

import (
	"strings"
	"testing"
)

// TestQueryScript: a Chinese question, which the language detector calls
// English, takes no BM25 feedback but keeps the dense list's weight; a
// question in another alphabet that the detector names no language of
// gets the foreign dense weight (none with the built-in embedder).
func TestQueryScript(t *testing.T) {
	e := localEngine(t, map[string]string{
		"wall.md":   "# 长城\n\n长城是中国古代的军事防御工程，绵延万里。\n",
		"moscow.md": "# Москва\n\nМосква столица России, крупнейший город страны.\n",
		"heart.md":  "# Cholesterol\n\nStatins lower blood cholesterol and the risk of heart attacks.\n",
	})
	zh := query(t, e, QueryOptions{Text: "长城 防御 工程", Mode: ModeHybrid, K: 10, Explain: true})
	if !strings.Contains(zh.Explain, "; no feedback") || len(zh.Results) == 0 || zh.Results[0].Path != "wall.md" {
		t.Errorf("Chinese query: explain %q, results %v", zh.Explain, paths(zh))
	}
	for _, r := range zh.Results {
		if strings.Contains(r.Explain, "not in English") {
			t.Errorf("Chinese query, %s: %q; want the full dense weight", r.Path, r.Explain)
		}
	}
	ru := query(t, e, QueryOptions{Text: "Москва столица", Mode: ModeHybrid, K: 10, Explain: true})
	if len(ru.Results) == 0 || ru.Results[0].Path != "moscow.md" || !strings.Contains(ru.Results[0].Explain, "x0 for a query not in English") {
		t.Errorf("Cyrillic query: results %v, explain %q", paths(ru), firstExplain(ru))
	}
}

func firstExplain(res *QueryResult) string {
	if len(res.Results) == 0 {
		return ""
	}
	return res.Results[0].Explain
}
