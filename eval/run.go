package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/autorag/autorag/engine"
)

// Options say what to evaluate.
type Options struct {
	// Workspace is the directory the corpus is written into (under
	// Workspace/corpus) and indexed there.
	Workspace string
	// Ext is the extension of the materialized files (".md"; ".py" for a
	// code corpus, so that it is chunked as code).
	Ext string
	// Modes to run: engine.ModeBM25, ModeVector, ModeHybrid. Vector and
	// hybrid need an embedder in Settings.
	Modes    []string
	Settings engine.Settings
	// Query options applied to every query (K and PerFile are set here:
	// the top 100 documents, one result per file).
	NoCollapse bool
	// Progress, when set, is told what is happening.
	Progress func(msg string)
}

// ModeReport is one mode's figures.
type ModeReport struct {
	Mode    string     `json:"mode"`
	Fusion  string     `json:"fusion,omitempty"`
	Scores  Scores     `json:"scores"`
	Latency Latency    `json:"latency_ms"`
	Empty   int        `json:"empty"` // queries answered with no result
	Runs    [][]RunHit `json:"-"`     // per query (Dataset.Queries order)
}

// RunHit is one ranked document of a run.
type RunHit struct {
	Doc   string
	Score float64
}

// Report is the result of an evaluation.
type Report struct {
	Dataset    string       `json:"dataset"`
	Split      string       `json:"split"`
	Docs       int          `json:"docs"`
	Queries    int          `json:"queries"`
	Chunks     int          `json:"chunks"`
	Settings   string       `json:"settings"`
	RefreshSec float64      `json:"refresh_s"`
	Modes      []ModeReport `json:"modes"`
	queryIDs   []string
}

// depth is how many documents each query ranks (Recall@100).
const depth = 100

// Run indexes ds in o.Workspace and runs every query in every mode.
func Run(ctx context.Context, ds *Dataset, o Options) (*Report, error) {
	say := func(format string, args ...any) {
		if o.Progress != nil {
			o.Progress(fmt.Sprintf(format, args...))
		}
	}
	root := filepath.Join(o.Workspace, "corpus")
	if err := os.MkdirAll(o.Workspace, 0o700); err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	say("writing %d documents to %s", len(ds.Docs), root)
	paths, err := Materialize(ds, root, o.Ext)
	if err != nil {
		return nil, fmt.Errorf("materialize: %w", err)
	}
	eng, err := engine.New(root, o.Settings)
	if err != nil {
		return nil, err
	}
	say("refreshing")
	start := time.Now()
	rr, err := eng.Refresh(ctx, engine.RefreshOptions{Command: "autorag eval", Wait: time.Minute})
	if err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	if rr.Failed > 0 {
		return nil, fmt.Errorf("refresh: %d documents failed to index (first: %v)", rr.Failed, rr.Failures[0])
	}
	rep := &Report{Dataset: ds.Name, Split: ds.Split, Docs: len(ds.Docs), Queries: len(ds.Queries), Chunks: rr.Chunks,
		Settings: eng.QuerySettings(), RefreshSec: time.Since(start).Seconds()}
	for _, q := range ds.Queries {
		rep.queryIDs = append(rep.queryIDs, q.ID)
	}
	g, err := eng.OpenCommitted()
	if err != nil {
		return nil, err
	}
	defer g.Close()
	for _, mode := range o.Modes {
		say("running %d queries, mode %s", len(ds.Queries), mode)
		mr, err := runMode(ctx, eng, g, ds, paths, mode, o)
		if err != nil {
			return nil, fmt.Errorf("mode %s: %w", mode, err)
		}
		rep.Modes = append(rep.Modes, *mr)
	}
	return rep, nil
}

func runMode(ctx context.Context, eng *engine.Engine, g *engine.Generation, ds *Dataset, paths map[string]string, mode string, o Options) (*ModeReport, error) {
	mr := &ModeReport{Mode: mode}
	runs := make(map[string][]string, len(ds.Queries))
	took := make([]time.Duration, 0, len(ds.Queries))
	for _, q := range ds.Queries {
		qo := engine.QueryOptions{Text: q.Text, K: depth, PerFile: 1, Mode: mode, NoCollapse: o.NoCollapse}
		t0 := time.Now()
		res, err := eng.Search(ctx, g, qo)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", q.ID, err)
		}
		took = append(took, time.Since(t0))
		mr.Fusion = res.Fusion
		hits := make([]RunHit, 0, len(res.Results))
		ids := make([]string, 0, len(res.Results))
		for _, r := range res.Results {
			// A collapsed result stands for every place its passage is
			// in: the documents of its also_in follow it in the run.
			for _, p := range append([]string{r.Path}, alsoInPaths(r)...) {
				id, ok := paths[p]
				if !ok {
					return nil, fmt.Errorf("query %s: result %s is no corpus document", q.ID, p)
				}
				hits = append(hits, RunHit{Doc: id, Score: r.Score})
				ids = append(ids, id)
			}
		}
		if len(hits) == 0 {
			mr.Empty++
		}
		runs[q.ID] = ids
		mr.Runs = append(mr.Runs, hits)
	}
	mr.Scores = Score(ds.Qrels, runs)
	mr.Latency = latency(took)
	return mr, nil
}

func alsoInPaths(r engine.Result) []string {
	out := make([]string, len(r.AlsoIn))
	for i, l := range r.AlsoIn {
		out[i] = l.Path
	}
	return out
}

// Latency summarizes query times in milliseconds.
type Latency struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Mean float64 `json:"mean"`
}

func latency(d []time.Duration) Latency {
	if len(d) == 0 {
		return Latency{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	at := func(p float64) float64 {
		i := int(p*float64(len(s))+0.5) - 1
		return ms(s[max(0, min(i, len(s)-1))])
	}
	var sum time.Duration
	for _, x := range s {
		sum += x
	}
	return Latency{P50: at(0.50), P90: at(0.90), P99: at(0.99), Mean: ms(sum / time.Duration(len(s)))}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
