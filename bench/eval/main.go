// Command eval compares variants of the built-in embedder by exact cosine
// search alone (no index) on a BEIR-format data set, and prints nDCG@10
// per variant:
//
//	go run ./bench/eval -data ../shared/eval/xquad-dev/ar -split dev -variants default,plain
//
// The documents are embedded from title + "\n" + text. To measure the
// engine itself (bm25, vector and hybrid through a real index) use
// `autorag eval DIR`; this command is for choosing among the embedder's
// variants (see static.NewVariant), which that cannot vary.
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

	"github.com/autorag/autorag/engine/embed/static"
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
	variants := fs.String("variants", "default", "comma-separated variants of the built-in embedder: default, plain (see static.NewVariant)")
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
		name := strings.TrimSpace(v)
		if name == "default" {
			name = ""
		}
		e, err := static.NewVariant(name)
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
