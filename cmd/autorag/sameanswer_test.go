package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSameAnswerInEveryProcess: the same query over the same index gives
// the same results in every process. The tree holds two sibling guides
// that share about half their word shingles, right at the similarity
// above which they collapse into one result: a per-process random hash
// (the copies' sketch had one) makes that decision, and so the answer,
// differ from one `autorag query` to the next.
func TestSameAnswerInEveryProcess(t *testing.T) {
	root := t.TempDir()
	r := rand.New(rand.NewPCG(5, 9))
	words := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("w%04d", r.IntN(5000))
		}
		return out
	}
	shared := words(400)
	a := append(append([]string{"rollout"}, shared...), words(200)...)
	b := append(append([]string{"rollout"}, shared...), words(200)...)
	writeFile(t, root, "guides/alpha/rollout.md", "# Rollout\n\n"+strings.Join(a, " ")+"\n")
	writeFile(t, root, "guides/beta/rollout.md", "# Rollout\n\n"+strings.Join(b, " ")+"\n")
	refreshJSON(t, root)
	var first any
	for i := range 6 {
		got := mustOK(t, "--root", root, "query", "--json", "--no-cache", "--mode", "bm25", "-k", "5", "rollout").json(t)["results"]
		if i == 0 {
			first = got
			continue
		}
		if diff := cmp.Diff(first, got); diff != "" {
			t.Fatalf("process %d answered differently from the first (-first +got):\n%s", i+1, diff)
		}
	}
}
