// Command eval compares variants of the built-in embedder by exact cosine
// search alone (no index) on a BEIR-format data set, and prints nDCG@10
// per variant:
//
//	go run ./bench/eval -data ../shared/eval/nfcorpus -split dev -variants sif5,logr100,sif3+nopc
//
// The documents are embedded from title + "\n" + text. To measure the
// engine itself (bm25, vector and hybrid through a real index) use
// `autorag eval DIR`; this command is for choosing the embedder's
// weighting, which that cannot vary.
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

	"github.com/autorag/autorag/engine/embed/local"
	"github.com/autorag/autorag/eval"
)

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
	variants := fs.String("variants", local.DefaultVariant, "comma-separated local embedder variants (see local.NewVariant)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" {
		fmt.Fprintln(stderr, "eval: -data is required")
		return 2
	}
	ds, err := eval.Load(*data, *split)
	if err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return 1
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "variant\tnDCG@10\tRecall@100\tqueries\tdocs\tseconds")
	for _, v := range strings.Split(*variants, ",") {
		e, err := local.NewVariant(strings.TrimSpace(v))
		if err != nil {
			fmt.Fprintln(stderr, "eval:", err)
			return 2
		}
		start := time.Now()
		runs, err := denseRuns(ctx, e, ds, 100)
		if err != nil {
			fmt.Fprintf(stderr, "eval: %s: %v\n", v, err)
			return 1
		}
		sc := eval.Score(ds.Qrels, runs)
		fmt.Fprintf(tw, "dense %s\t%.4f\t%.4f\t%d\t%d\t%.1f\n", v, sc.NDCG10, sc.Recall100, len(ds.Qrels), len(ds.Docs), time.Since(start).Seconds())
	}
	tw.Flush()
	return 0
}
