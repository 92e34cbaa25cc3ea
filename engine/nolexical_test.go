package engine

import (
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/embed/static"
)

// TestNonsenseWordGetsNoLexicalMatch: a made-up word returns no results
// in hybrid mode, with a hint saying that nothing matched lexically; a
// real query is answered as before.
func TestNonsenseWordGetsNoLexicalMatch(t *testing.T) {
	s := DefaultSettings()
	s.Embedder = static.New()
	root := t.TempDir()
	writeSource(t, root, "keys.md", passage)
	writeSource(t, root, "cache.md", "# Cache\n\nThe cache evicts the least recently used entry when it is full.\n")
	writeSource(t, root, "deploy.md", "# Deploying\n\nBuild the image, push it to the registry and roll the deployment out.\n")
	// Words that share letters with the made-up one: its vector (character
	// n-grams) finds this file at about 0.34, above the floor for unknown
	// words (0.25).
	writeSource(t, root, "explore.md", "# Explorer\n\nqwz xplor bnick, a plot explorer nickname quiz for the whole team\n")
	e, err := New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	mustRefresh(t, e)
	if v := query(t, e, QueryOptions{Text: "qwzxplorbnick", Mode: ModeVector}); len(v.Results) == 0 || *v.Results[0].Scores.Vector < 0.3 {
		t.Fatalf("the vector finds nothing above the floor for unknown words: %+v", v.Results)
	}
	res := query(t, e, QueryOptions{Text: "qwzxplorbnick", Mode: ModeHybrid, Explain: true})
	if len(res.Results) != 0 || !strings.HasPrefix(res.Hint, "no lexical match") || !strings.Contains(res.Explain, "no lexical match") {
		t.Errorf("nonsense word: %v, hint %q, explain %q", paths(res), res.Hint, res.Explain)
	}
	real := query(t, e, QueryOptions{Text: "least recently used", Mode: ModeHybrid})
	if got := paths(real); len(got) == 0 || got[0] != "cache.md" || real.Hint != "" {
		t.Errorf("real query: %v, hint %q", got, real.Hint)
	}
}
