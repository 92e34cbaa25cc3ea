package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/budget"
)

// TestQueryMaxTokens: --max-tokens keeps what is printed within the
// budget, keeps the ranking, shows a trimmed passage as one run of lines,
// and says so in every format.
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
			if len(h.ShownLines) != 1 || strings.Contains(h.Text, "omitted") {
				t.Errorf("trimmed result %d not one run of lines: %+v", i, h)
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

// budgetedQueries are the queries and budgets whose budgeted markdown
// prompt TestGoldenBudgeted pins.
var budgetedQueries = []struct {
	q      string
	tokens int
}{
	{"retry backoff jitter", 300},
	{"retry backoff jitter", 1000},
	{"rotate JWT signing keys", 500},
	{"how are database migrations applied", 1000},
}

// TestGoldenBudgeted pins the markdown prompt of --max-tokens on the test
// corpus in testdata/budgeted_markdown.golden (-update rewrites it): the
// best passages first, whole when they fit, else one run of lines around
// their best ones, and each within its budget.
func TestGoldenBudgeted(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	var got strings.Builder
	for _, c := range budgetedQueries {
		out := mustOK(t, "--root", root, "query", "--no-cache", "--format", "markdown", "--max-tokens", fmt.Sprint(c.tokens), c.q).stdout
		if n := budget.Count(out); n > c.tokens+budget.Count("Search results for \""+c.q+"\" (autorag; cite a passage by its location):\n") {
			t.Errorf("%q in %d tokens: the prompt takes %d", c.q, c.tokens, n)
		}
		fmt.Fprintf(&got, "=== %q --max-tokens %d\n%s", c.q, c.tokens, out)
	}
	checkGoldenFile(t, filepath.Join("testdata", "budgeted_markdown.golden"), got.String())
}
