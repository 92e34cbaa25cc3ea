// Command eval measures retrieval quality on a BEIR-format data set
// (corpus.jsonl, queries.jsonl, qrels/<split>.tsv) and prints a table of
// nDCG@10, one row per mode (and per dense variant):
//
//	go run ./bench/eval -data /work/shared/eval/nfcorpus -split test
//	go run ./bench/eval -data /work/shared/eval/nfcorpus -split dev -modes dense -variants logr100,sif3
//
// Modes: bm25 runs the real engine (BM25 only) over the corpus written as
// one markdown file per document; dense is exact cosine over the local
// embedder's vectors of title + "\n" + text; engine builds one index with
// the built-in embedder and runs bm25, vector and hybrid (default fusion,
// plus any -fusions) through it. A mode is one function from the data set
// to a ranking per query (see modes); add one there.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/local"
)

// ranker ranks the corpus for every evaluated query: query id → doc ids,
// best first, at least k of them where the corpus allows.
type ranker func(ctx context.Context, ds *dataset, k int) (map[string][]string, error)

// modes builds the rankers a -modes name stands for, in order, with a label
// each. dense gives one ranker per -variants entry.
func modes(name string, variants, fusions []string, ix *engineIndex) ([]string, []ranker, error) {
	switch name {
	case "engine":
		labels := []string{"engine bm25", "engine vector", "engine hybrid (default fusion)"}
		rs := []ranker{ix.ranker(engine.ModeBM25, engine.Fusion{}), ix.ranker(engine.ModeVector, engine.Fusion{}),
			ix.ranker(engine.ModeHybrid, engine.Fusion{})}
		for _, f := range fusions {
			if f == "" {
				continue
			}
			fu, err := parseFusion(f)
			if err != nil {
				return nil, nil, err
			}
			labels = append(labels, "engine hybrid "+fu.String())
			rs = append(rs, ix.ranker(engine.ModeHybrid, fu))
		}
		return labels, rs, nil
	case "bm25":
		bm := &engineIndex{bm25Only: true}
		return []string{"bm25"}, []ranker{func(ctx context.Context, ds *dataset, k int) (map[string][]string, error) {
			defer bm.close()
			return bm.ranker(engine.ModeBM25, engine.Fusion{})(ctx, ds, k)
		}}, nil
	case "dense":
		var labels []string
		var rs []ranker
		for _, v := range variants {
			e, err := local.NewVariant(v)
			if err != nil {
				return nil, nil, err
			}
			labels = append(labels, "dense "+v)
			rs = append(rs, denseRanker(e))
		}
		return labels, rs, nil
	}
	return nil, nil, fmt.Errorf("unknown mode %q (want bm25, dense or engine)", name)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "BEIR data set directory (corpus.jsonl, queries.jsonl, qrels/)")
	split := fs.String("split", "test", "qrels split: qrels/<split>.tsv")
	modeList := fs.String("modes", "bm25,dense", "comma-separated modes: bm25, dense, engine (bm25, vector and hybrid through one index with the built-in embedder)")
	fusions := fs.String("fusions", "", "engine mode: extra hybrid fusions to try, e.g. convex:0.9,rrf:0.3")
	variants := fs.String("variants", local.DefaultVariant, "comma-separated local embedder variants for dense (see local.NewVariant)")
	k := fs.Int("k", 10, "nDCG cut-off")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" || *k < 1 {
		fmt.Fprintln(stderr, "eval: -data is required and -k must be positive")
		return 2
	}
	ds, err := loadDataset(*data, *split)
	if err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return 1
	}
	var labels []string
	var rankers []ranker
	ix := &engineIndex{}
	defer ix.close()
	for _, m := range strings.Split(*modeList, ",") {
		l, r, err := modes(strings.TrimSpace(m), strings.Split(*variants, ","), strings.Split(*fusions, ","), ix)
		if err != nil {
			fmt.Fprintln(stderr, "eval:", err)
			return 2
		}
		labels, rankers = append(labels, l...), append(rankers, r...)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "mode\tnDCG@%d\tqueries\tdocs\tseconds\n", *k)
	for i, r := range rankers {
		start := time.Now()
		runs, err := r(ctx, ds, *k)
		if err != nil {
			fmt.Fprintf(stderr, "eval: %s: %v\n", labels[i], err)
			return 1
		}
		fmt.Fprintf(tw, "%s\t%.4f\t%d\t%d\t%.1f\n", labels[i], meanNDCG(ds.qrels, runs, *k),
			len(ds.qrels), len(ds.docs), time.Since(start).Seconds())
	}
	tw.Flush()
	return 0
}
