package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/budget"
)

// TestQueryMaxTokens: --max-tokens keeps what is printed within the
// budget, shows more results than whole passages would by trimming, and
// says so in every format.
func TestQueryMaxTokens(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	const q = "retry backoff jitter"
	var whole agentapi.SearchAnswer
	if err := json.Unmarshal([]byte(mustOK(t, "--root", root, "query", "--json", "-k", "5", "--max-tokens", "100000", q).stdout), &whole); err != nil {
		t.Fatal(err)
	}
	var fit agentapi.SearchAnswer
	if err := json.Unmarshal([]byte(mustOK(t, "--root", root, "query", "--json", "-k", "5", "--max-tokens", "400", q).stdout), &fit); err != nil {
		t.Fatal(err)
	}
	if fit.MaxTokens != 400 || fit.Tokens > 400 || fit.Encoding != budget.Encoding || whole.Tokens <= 400 {
		t.Fatalf("budget 400: max %d tokens %d encoding %q (whole answer %d tokens)", fit.MaxTokens, fit.Tokens, fit.Encoding, whole.Tokens)
	}
	trimmed := 0
	for i, h := range fit.Results {
		if h.Result.Path != whole.Results[i].Result.Path {
			t.Errorf("result %d: %s, want %s (the ranking is kept)", i, h.Result.Path, whole.Results[i].Result.Path)
		}
		if h.Trimmed {
			trimmed++
			if !strings.Contains(h.Text, "omitted") || len(h.ShownLines) == 0 {
				t.Errorf("trimmed result %d without a marker or shown lines: %+v", i, h)
			}
		}
	}
	if trimmed == 0 || len(fit.Results)+fit.LeftOut != len(whole.Results) {
		t.Errorf("%d trimmed, %d shown + %d left out of %d", trimmed, len(fit.Results), fit.LeftOut, len(whole.Results))
	}
	md := mustOK(t, "--root", root, "query", "--format", "markdown", "-k", "5", "--max-tokens", "400", q).stdout
	if n := budget.Count(md); n > 400+budget.Count("Search results for \""+q+"\" (autorag; cite a passage by its location):\n") {
		t.Errorf("markdown takes %d tokens:\n%s", n, md)
	}
	if !strings.Contains(md, "[1] "+agentapi.Citation(fit.Results[0], false)) {
		t.Errorf("markdown lacks the first citation:\n%s", md)
	}
	if r := cli(t, nil, "--root", root, "query", "--max-tokens", "-3", q); r.code != exitUsage {
		t.Errorf("--max-tokens -3: exit %d", r.code)
	}
}
