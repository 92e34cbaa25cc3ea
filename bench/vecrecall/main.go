// Command vecrecall measures the recall of the vector index's 4-bit scan
// against its exact scan on real text embeddings: the BEIR corpora of an
// eval directory, cut into passages of about 400 bytes and embedded with
// the built-in embedder (potion-base-8M, 256 dims), queried with the sets'
// own queries. It prints recall@10 and @50 per candidate count, as
// docs/BENCHMARKS.md reports them.
//
//	go run ./bench/vecrecall -eval /work/shared/eval
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/engine/vector"
	"github.com/autorag/autorag/internal/jsonl"
)

func main() {
	eval := flag.String("eval", "/work/shared/eval", "directory of BEIR sets (corpus.jsonl, queries.jsonl)")
	sets := flag.String("sets", "nfcorpus,scifact-train,cosqa-dev", "comma-separated sets")
	nq := flag.Int("queries", 300, "queries per set")
	flag.Parse()
	if err := run(*eval, strings.Split(*sets, ","), *nq); err != nil {
		fmt.Fprintln(os.Stderr, "vecrecall:", err)
		os.Exit(1)
	}
}

func run(eval string, sets []string, nq int) error {
	var passages, queries []string
	for _, s := range sets {
		docs, err := readTexts(filepath.Join(eval, s, "corpus.jsonl"), 0)
		if err != nil {
			return err
		}
		for _, d := range docs {
			passages = append(passages, split(d, 400)...)
		}
		qs, err := readTexts(filepath.Join(eval, s, "queries.jsonl"), nq)
		if err != nil {
			return err
		}
		queries = append(queries, qs...)
	}
	emb := static.New()
	ctx := context.Background()
	pv, err := emb.Embed(ctx, passages)
	if err != nil {
		return err
	}
	qv, err := emb.Embed(ctx, queries)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "vecrecall-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	adds := make([]vector.Entry, len(pv))
	for i, v := range pv {
		adds[i] = vector.Entry{ID: fmt.Sprintf("p%07d", i), Vec: v}
	}
	g := filepath.Join(dir, "g")
	if _, err := vector.Build(g, "", static.Dims, nil, adds); err != nil {
		return err
	}
	ix, err := vector.Open(g, static.Dims)
	if err != nil {
		return err
	}
	defer ix.Close()
	fmt.Printf("%d passages (%d dims), %d queries from %s\n", len(pv), static.Dims, len(qv), strings.Join(sets, ", "))
	exact := make([][]vector.Hit, len(qv))
	for i, q := range qv {
		exact[i] = ix.SearchQuery(vector.Query{Vec: q, K: 50, Scan: vector.ScanExact})
	}
	fmt.Println("| candidates | recall@10 | recall@50 |\n|---|---|---|")
	for _, n := range []int{50, 100, 200, 500, 1000} {
		fmt.Printf("| %d | %.4f | %.4f |\n", n, recall(ix, qv, exact, 10, n), recall(ix, qv, exact, 50, max(n, 50)))
	}
	return nil
}

// recall is the share of the exact top k that the 4-bit scan with n
// candidates returns in its top k.
func recall(ix *vector.Index, qv [][]float32, exact [][]vector.Hit, k, n int) float64 {
	found, total := 0, 0
	for i, q := range qv {
		got := map[string]bool{}
		for _, h := range ix.SearchQuery(vector.Query{Vec: q, K: k, Scan: vector.ScanInt4, Candidates: n}) {
			got[h.ID] = true
		}
		for _, h := range exact[i][:min(k, len(exact[i]))] {
			if got[h.ID] {
				found++
			}
		}
		total += min(k, len(exact[i]))
	}
	return float64(found) / float64(total)
}

// readTexts reads the title and text of up to limit (0: all) JSON lines.
func readTexts(path string, limit int) ([]string, error) {
	var out []string
	err := jsonl.Read(path, func(r struct{ Title, Text string }) bool {
		out = append(out, strings.TrimSpace(r.Title+"\n"+r.Text))
		return limit == 0 || len(out) < limit
	})
	return out, err
}

// split cuts text at spaces into passages of about size bytes.
func split(text string, size int) []string {
	var out []string
	for len(text) > size {
		cut := strings.LastIndexByte(text[:size], ' ')
		if cut <= 0 {
			cut = size
		}
		out = append(out, text[:cut])
		text = strings.TrimSpace(text[cut:])
	}
	if text != "" {
		out = append(out, text)
	}
	return out
}
