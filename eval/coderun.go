package eval

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/autorag/autorag/engine"
)

// FileNDCG is file-level NDCG@10 as codesearch-dev's README (and semble's
// metrics.py) defines it: binary gains, each labelled file counted once at
// the rank of its first appearance among the first 10 distinct files of
// files, over the ideal of min(10, labelled) hits; 0 when nothing is
// labelled.
func FileNDCG(labels map[string]int, files []string) float64 {
	seen := map[string]bool{}
	var dcg float64
	rank := 0
	for _, f := range files {
		if seen[f] {
			continue
		}
		seen[f] = true
		if rank++; rank > 10 {
			break
		}
		if _, ok := labels[f]; ok {
			dcg += 1 / math.Log2(float64(rank+1))
		}
	}
	var idcg float64
	for i := 1; i <= min(10, len(labels)); i++ {
		idcg += 1 / math.Log2(float64(i+1))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// CodeOptions say how to evaluate a code set.
type CodeOptions struct {
	// Workspace holds a copy of each tree (Workspace/<name>/tree), indexed
	// there, so the set itself is never written.
	Workspace string
	Modes     []string
	Settings  engine.Settings
	// K is the -k each query is asked with (score.py's 10 when 0).
	K        int
	Progress func(msg string)
}

// CodeReport is the result of evaluating a code set.
type CodeReport struct {
	Set      string           `json:"set"`
	Split    string           `json:"split"`
	Settings string           `json:"settings"`
	Repos    []CodeRepoInfo   `json:"repos"`
	Modes    []CodeModeReport `json:"modes"`
}

// CodeRepoInfo is what indexing one repository gave.
type CodeRepoInfo struct {
	Name       string  `json:"name"`
	Queries    int     `json:"queries"`
	Chunks     int     `json:"chunks"`
	RefreshSec float64 `json:"refresh_s"`
}

// CodeModeReport is one mode's figures: NDCG@10 per repository (the mean
// over its queries), per category (the mean over all of its queries),
// the mean over repositories (the benchmark's figure) and over queries.
type CodeModeReport struct {
	Mode        string           `json:"mode"`
	MeanRepos   float64          `json:"ndcg@10_repos"`
	MeanQueries float64          `json:"ndcg@10_queries"`
	Repos       []GroupScore     `json:"per_repo"`
	Categories  []GroupScore     `json:"per_category"`
	Latency     Latency          `json:"latency_ms"`
	Queries     []CodeQueryScore `json:"queries"`
}

// GroupScore is the mean NDCG@10 of a group of queries.
type GroupScore struct {
	Name    string  `json:"name"`
	Queries int     `json:"queries"`
	NDCG10  float64 `json:"ndcg@10"`
}

// CodeQueryScore is one query's score and the files it was answered with.
type CodeQueryScore struct {
	ID       string   `json:"id"`
	Category string   `json:"category"`
	NDCG10   float64  `json:"ndcg@10"`
	Files    []string `json:"files"`
}

// RunCode indexes a copy of each repository's tree and runs its queries
// in every mode, one result per file, as `autorag query -k K` answers them.
func RunCode(ctx context.Context, set string, repos []*CodeRepo, split string, o CodeOptions) (*CodeReport, error) {
	if o.K <= 0 {
		o.K = 10
	}
	rep := &CodeReport{Set: filepath.Base(filepath.Clean(set)), Split: split}
	scores := map[string][]CodeQueryScore{}
	took := map[string][]time.Duration{}
	for _, r := range repos {
		info, err := runRepo(ctx, r, o, rep, scores, took)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		rep.Repos = append(rep.Repos, info)
	}
	for _, m := range o.Modes {
		rep.Modes = append(rep.Modes, summarize(m, repos, scores[m], took[m]))
	}
	return rep, nil
}

func runRepo(ctx context.Context, r *CodeRepo, o CodeOptions, rep *CodeReport, scores map[string][]CodeQueryScore, took map[string][]time.Duration) (CodeRepoInfo, error) {
	info := CodeRepoInfo{Name: r.Name, Queries: len(r.Queries)}
	say(o, "%s: copying the tree", r.Name)
	dir := filepath.Join(o.Workspace, FileName(r.Name))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return info, err
	}
	root := filepath.Join(dir, "tree")
	if err := SyncTree(r.Tree, root); err != nil {
		return info, err
	}
	eng, err := engine.New(root, o.Settings)
	if err != nil {
		return info, err
	}
	say(o, "%s: refreshing", r.Name)
	start := time.Now()
	rr, err := eng.Refresh(ctx, engine.RefreshOptions{Command: "autorag eval", Wait: time.Minute})
	if err != nil {
		return info, fmt.Errorf("refresh: %w", err)
	}
	info.Chunks, info.RefreshSec = rr.Chunks, time.Since(start).Seconds()
	rep.Settings = eng.QuerySettings()
	g, err := eng.OpenCommitted()
	if err != nil {
		return info, err
	}
	defer g.Close()
	for _, mode := range o.Modes {
		say(o, "%s: %d queries, mode %s", r.Name, len(r.Queries), mode)
		for _, q := range r.Queries {
			t0 := time.Now()
			res, err := eng.Search(ctx, g, engine.QueryOptions{Text: q.Text, K: o.K, PerFile: 1, Mode: mode})
			if err != nil {
				return info, fmt.Errorf("query %s: %w", q.ID, err)
			}
			took[mode] = append(took[mode], time.Since(t0))
			files := make([]string, 0, len(res.Results))
			for _, x := range res.Results {
				files = append(files, x.Path)
			}
			scores[mode] = append(scores[mode], CodeQueryScore{ID: q.ID, Category: q.Category, NDCG10: FileNDCG(r.Labels[q.ID], files), Files: files})
		}
	}
	return info, nil
}

func say(o CodeOptions, format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// summarize gives one mode's means; qs are in repos' order.
func summarize(mode string, repos []*CodeRepo, qs []CodeQueryScore, took []time.Duration) CodeModeReport {
	m := CodeModeReport{Mode: mode, Queries: qs, Latency: latency(took)}
	i := 0
	for _, r := range repos {
		g := GroupScore{Name: r.Name, Queries: len(r.Queries)}
		for range r.Queries {
			g.NDCG10 += qs[i].NDCG10
			i++
		}
		if g.Queries > 0 {
			g.NDCG10 /= float64(g.Queries)
		}
		m.Repos = append(m.Repos, g)
		m.MeanRepos += g.NDCG10 / float64(len(repos))
	}
	cats := map[string]*GroupScore{}
	for _, q := range qs {
		c := cats[q.Category]
		if c == nil {
			c = &GroupScore{Name: q.Category}
			cats[q.Category] = c
		}
		c.Queries++
		c.NDCG10 += q.NDCG10
		m.MeanQueries += q.NDCG10 / float64(len(qs))
	}
	for _, c := range cats {
		c.NDCG10 /= float64(c.Queries)
		m.Categories = append(m.Categories, *c)
	}
	sort.Slice(m.Categories, func(i, j int) bool { return m.Categories[i].Name < m.Categories[j].Name })
	return m
}
