// Command agents measures what issue 26 added for agents, on a BEIR data
// set (../shared/eval/nfcorpus):
//
//	go run ./bench/agents -data ../shared/eval/nfcorpus budget   # nDCG@10 of what is shown at 500/1,000/2,000 tokens
//	go run ./bench/agents -data ../shared/eval/nfcorpus merge    # one index vs the corpus split over 2 and 4 roots, per merge
//	go run ./bench/agents -data ../shared/eval/nfcorpus rss      # RSS of autorag serve over 1 root and over 20
//	go run ./bench/agents -split train roots ../shared/eval/codesearch-dev/gin ../shared/eval/scifact-train
//	                                             # each root's questions asked of it alone and of all merged
//	go run ./bench/agents -merges coverage -losers roots DIR DIR   # and each question the merge loses, and why
//
// Indexes are built under -work (default $TMPDIR/autorag-agents-bench) and
// reused by later runs; the data set is never modified.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/eval"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

type config struct {
	data, split, work string
	k                 int
	merges            []string // roots: the ways of merging to compare
	losers            bool     // roots: print each question a merge loses
	ds                *eval.Dataset
	stdout, stderr    io.Writer
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("agents", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &config{stdout: stdout, stderr: stderr}
	fs.StringVar(&c.data, "data", "", "BEIR data set directory")
	fs.StringVar(&c.split, "split", "test", "qrels split")
	fs.StringVar(&c.work, "work", filepath.Join(os.TempDir(), "autorag-agents-bench"), "work directory (indexes are kept and reused)")
	fs.IntVar(&c.k, "k", 10, "results asked of each search")
	merges := fs.String("merges", strings.Join(allMerges, ","), "roots: the ways of merging to compare, comma-separated")
	fs.BoolVar(&c.losers, "losers", false, "roots: after the table, each question a merge ranks worse than its root alone, with the other roots' hits above its first relevant file and each root's weight")
	if err := fs.Parse(args); err != nil || (c.data == "" || fs.NArg() != 1) && fs.Arg(0) != "roots" {
		fmt.Fprintln(stderr, "usage: agents -data DIR [-split S] [-work DIR] [-k N] budget|merge|rss\n       agents [-split S] [-work DIR] [-merges M,M] [-losers] roots DIR DIR...")
		return 2
	}
	c.merges = strings.Split(*merges, ",")
	var err error
	if fs.Arg(0) == "roots" {
		if err = runRoots(ctx, c, fs.Args()[1:]); err != nil {
			fmt.Fprintln(stderr, "agents:", err)
			return 1
		}
		return 0
	}
	if c.ds, err = eval.Load(c.data, c.split); err != nil {
		fmt.Fprintln(stderr, "agents:", err)
		return 1
	}
	switch fs.Arg(0) {
	case "budget":
		err = runBudget(ctx, c)
	case "merge":
		err = runMerge(ctx, c)
	case "rss":
		err = runRSS(ctx, c)
	default:
		fmt.Fprintf(stderr, "agents: unknown experiment %q\n", fs.Arg(0))
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "agents:", err)
		return 1
	}
	return 0
}

// index materializes docs into dir and brings its index up to date
// (nothing to do when a previous run left it so).
func index(ctx context.Context, dir string, docs []eval.Doc, c *config) (*engine.Engine, map[string]string, error) {
	ds := *c.ds
	ds.Docs = docs
	// Materialize makes dir itself, private, but not its parents.
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return nil, nil, err
	}
	paths, err := eval.Materialize(&ds, dir, ".md")
	if err != nil {
		return nil, nil, err
	}
	s := engine.DefaultSettings()
	s.Embedder = static.New()
	e, err := engine.New(dir, s)
	if err != nil {
		return nil, nil, err
	}
	res, err := e.Refresh(ctx, engine.RefreshOptions{Command: "bench/agents"})
	if err != nil {
		return nil, nil, fmt.Errorf("index %s: %w", dir, err)
	}
	fmt.Fprintf(c.stderr, "indexed %s: %d docs, %s\n", dir, len(docs), res.Outcome)
	return e, paths, nil
}

// allMerges are the ways of merging roots that merge and roots compare.
var allMerges = []string{agentapi.MergeScaled, agentapi.MergeScore, agentapi.MergeRank, agentapi.MergeCosine, agentapi.MergeCoverage, agentapi.MergeEvidence}

// split deals the documents into n parts, round robin by position.
func split(docs []eval.Doc, n int) [][]eval.Doc {
	parts := make([][]eval.Doc, n)
	for i, d := range docs {
		parts[i%n] = append(parts[i%n], d)
	}
	return parts
}

// docIDs maps hits to document ids (paths are file names made from ids,
// unique over every part).
func docIDs(hits []agentapi.Hit, paths map[string]string) []string {
	out := make([]string, 0, len(hits))
	seen := map[string]bool{}
	for _, h := range hits {
		id := paths[strings.TrimPrefix(h.Result.Path, "./")]
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// search runs every judged query against ws and returns the hits.
func search(ctx context.Context, ws *agentapi.Workspace, c *config, maxTokens int) ([][]agentapi.Hit, error) {
	out := make([][]agentapi.Hit, len(c.ds.Queries))
	for i, q := range c.ds.Queries {
		a, err := ws.Search(ctx, agentapi.WorkspaceSearch{SearchRequest: agentapi.SearchRequest{Query: q.Text, K: &c.k}, MaxTokens: maxTokens})
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", q.ID, err)
		}
		out[i] = a.Results
	}
	return out, nil
}

// ndcg is the mean nDCG@10 of the runs (hits per query, in c.ds.Queries order).
func ndcg(c *config, runs [][]agentapi.Hit, paths map[string]string) float64 {
	byQuery := map[string][]string{}
	for i, q := range c.ds.Queries {
		byQuery[q.ID] = docIDs(runs[i], paths)
	}
	return eval.Score(c.ds.Qrels, byQuery).NDCG10
}
