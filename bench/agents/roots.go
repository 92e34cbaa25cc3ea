package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/eval"
)

// labelled is one root of the roots experiment: its engine and its own
// questions, judged by path.
type labelled struct {
	name    string
	e       *engine.Engine
	queries []eval.Query
	judged  map[string]map[string]int // query id → path → grade
}

// runRoots serves the given data sets as the roots of one workspace and
// asks each root's questions of that root alone and of all roots merged,
// for each way of merging (c.merges): MRR@10 and nDCG@10 per root's
// questions; with c.losers, each question a merge ranks worse than its
// root alone, after the table (losers.go).
func runRoots(ctx context.Context, c *config, dirs []string) error {
	var roots []*labelled
	var ms []agentapi.Member
	for _, d := range dirs {
		l, err := loadRoot(ctx, c, d)
		if err != nil {
			return err
		}
		roots = append(roots, l)
		ms = append(ms, agentapi.Member{Name: l.name, Engine: l.e})
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "questions of\tmerge\tMRR@10\tnDCG@10\tfirst from another root\n")
	alone := map[string][]asked{}
	var lost []loss
	for _, m := range append([]string{"alone"}, c.merges...) {
		ws, err := agentapi.NewWorkspace(ms, agentapi.WorkspaceOptions{Merge: m})
		if err != nil {
			return err
		}
		for _, l := range roots {
			root := ""
			if m == "alone" {
				root = l.name
			}
			as, err := askRoot(ctx, ws, c, l, root)
			if err != nil {
				ws.Close()
				return err
			}
			if m == "alone" {
				alone[l.name] = as
			} else if c.losers {
				lost = append(lost, losers(l, m, alone[l.name], as)...)
			}
			mrr, ndcg, foreign := means(as, l.name)
			fmt.Fprintf(tw, "%s (%d)\t%s\t%.4f\t%.4f\t%d\n", l.name, len(l.queries), m, mrr, ndcg, foreign)
		}
		ws.Close()
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return printLosers(c.stdout, lost)
}

// asked is one question's merged answer and its scores.
type asked struct {
	q         eval.Query
	a         *agentapi.SearchAnswer
	rr, ndcg  float64
	firstRank int // of l's first relevant file among the ranked files, 0 when none in the top 10
}

// askRoot asks l's questions of root ("" for all) and scores the answers
// against l's labels: hits of other roots are never relevant.
func askRoot(ctx context.Context, ws *agentapi.Workspace, c *config, l *labelled, root string) ([]asked, error) {
	out := make([]asked, 0, len(l.queries))
	for _, q := range l.queries {
		a, err := ws.Search(ctx, agentapi.WorkspaceSearch{Root: root, SearchRequest: agentapi.SearchRequest{Query: q.Text, K: &c.k}})
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", l.name, q.ID, err)
		}
		var ranked []string
		seen := map[string]bool{}
		for _, h := range a.Results {
			id := h.Root + "\x00" + h.Result.Path
			if !seen[id] {
				seen[id] = true
				ranked = append(ranked, id)
			}
		}
		judged := map[string]int{}
		for p, g := range l.judged[q.ID] {
			judged[l.name+"\x00"+p] = g
		}
		x := asked{q: q, a: a, rr: eval.MRR(judged, ranked, 10), ndcg: eval.NDCG(judged, ranked, 10)}
		if x.rr > 0 {
			x.firstRank = int(1/x.rr + 0.5)
		}
		out = append(out, x)
	}
	return out, nil
}

// means are the mean MRR@10 and nDCG@10 of as, and how many of its
// questions were answered first from a root other than own.
func means(as []asked, own string) (mrr, ndcg float64, foreign int) {
	for _, x := range as {
		mrr += x.rr
		ndcg += x.ndcg
		if len(x.a.Results) > 0 && x.a.Results[0].Root != own {
			foreign++
		}
	}
	n := float64(len(as))
	return mrr / n, ndcg / n, foreign
}

// loadRoot indexes dir under c.work: a code tree of codesearch-dev's
// layout (tree/, queries.jsonl, qrels/test.tsv; every label has grade 1,
// as its metric says) or a BEIR data set (corpus.jsonl, split -split).
func loadRoot(ctx context.Context, c *config, dir string) (*labelled, error) {
	name := filepath.Base(filepath.Clean(dir))
	work := filepath.Join(c.work, "roots", name)
	l := &labelled{name: name, judged: map[string]map[string]int{}}
	if _, err := os.Stat(filepath.Join(dir, "tree")); err == nil {
		if err := copyTree(filepath.Join(dir, "tree"), work); err != nil {
			return nil, err
		}
		if err := readCodeLabels(dir, l); err != nil {
			return nil, err
		}
	} else if err := materializeBEIR(c, dir, work, l); err != nil {
		return nil, err
	}
	s := engine.DefaultSettings()
	s.Embedder = static.New()
	e, err := engine.New(work, s)
	if err != nil {
		return nil, err
	}
	res, err := e.Refresh(ctx, engine.RefreshOptions{Command: "bench/agents"})
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", work, err)
	}
	fmt.Fprintf(c.stderr, "indexed %s: %s\n", work, res.Outcome)
	l.e = e
	return l, nil
}

// copyTree copies src to dst once (a later run reuses the copy).
func copyTree(src, dst string) error {
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		return fmt.Errorf("copy %s: %v: %s", src, err, out)
	}
	return nil
}

// readCodeLabels reads queries.jsonl and qrels/test.tsv of a code tree.
func readCodeLabels(dir string, l *labelled) error {
	b, err := os.ReadFile(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var q eval.Query
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			return fmt.Errorf("%s queries: %w", dir, err)
		}
		l.queries = append(l.queries, q)
	}
	f, err := os.Open(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 3 || fields[0] == "query-id" {
			continue
		}
		if l.judged[fields[0]] == nil {
			l.judged[fields[0]] = map[string]int{}
		}
		l.judged[fields[0]][fields[1]] = 1
	}
	return sc.Err()
}

// materializeBEIR writes a BEIR corpus's documents as files under work
// and judges its queries by those files' paths.
func materializeBEIR(c *config, dir, work string, l *labelled) error {
	ds, err := eval.Load(dir, c.split)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(work), 0o700); err != nil {
		return err
	}
	paths, err := eval.Materialize(ds, work, ".md")
	if err != nil {
		return err
	}
	pathOf := map[string]string{}
	for p, id := range paths {
		pathOf[id] = p
	}
	l.queries = ds.Queries
	for q, docs := range ds.Qrels {
		l.judged[q] = map[string]int{}
		for id, g := range docs {
			if g > 0 {
				l.judged[q][pathOf[id]] = g
			}
		}
	}
	return nil
}
