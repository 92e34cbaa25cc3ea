package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/local"
)

// engineIndex builds one index of the corpus with the built-in embedder
// and serves every engine mode from it.
type engineIndex struct {
	bm25Only bool // build without an embedder
	dir      string
	eng      *engine.Engine
}

func (x *engineIndex) build(ctx context.Context, ds *dataset) (*engine.Engine, error) {
	if x.eng != nil {
		return x.eng, nil
	}
	dir, err := os.MkdirTemp("", "autorag-eval-")
	if err != nil {
		return nil, err
	}
	x.dir = dir
	for _, d := range ds.docs {
		body := "# " + d.Title + "\n\n" + d.Text + "\n"
		if err := os.WriteFile(filepath.Join(dir, d.ID+".md"), []byte(body), 0o644); err != nil {
			return nil, err
		}
	}
	s := engine.DefaultSettings()
	if !x.bm25Only {
		s.Embedder = local.New()
	}
	eng, err := engine.New(dir, s)
	if err != nil {
		return nil, err
	}
	if _, err := eng.Refresh(ctx, engine.RefreshOptions{Command: "eval"}); err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	x.eng = eng
	return eng, nil
}

func (x *engineIndex) close() {
	if x.dir != "" {
		os.RemoveAll(x.dir)
	}
}

// ranker runs every query through the engine in mode with fusion f (the
// zero Fusion is the embedder's default).
func (x *engineIndex) ranker(mode string, f engine.Fusion) ranker {
	return func(ctx context.Context, ds *dataset, k int) (map[string][]string, error) {
		eng, err := x.build(ctx, ds)
		if err != nil {
			return nil, err
		}
		eng.Settings.Fusion = f
		runs := make(map[string][]string, len(ds.queries))
		for _, q := range ds.queries {
			res, err := eng.Query(ctx, engine.QueryOptions{Text: q.Text, K: k, PerFile: 1, Mode: mode})
			if err != nil {
				return nil, fmt.Errorf("query %s: %w", q.ID, err)
			}
			ids := make([]string, 0, len(res.Results))
			for _, r := range res.Results {
				ids = append(ids, strings.TrimSuffix(r.Path, ".md"))
			}
			runs[q.ID] = ids
		}
		return runs, nil
	}
}

// parseFusion reads "convex:A" (A = weight of BM25) or "rrf:W" (W = weight
// of the vector list; k and the BM25 weight as in engine.DefaultRRF: 60, 1).
func parseFusion(s string) (engine.Fusion, error) {
	method, arg, _ := strings.Cut(s, ":")
	v, err := strconv.ParseFloat(arg, 64)
	if err != nil {
		return engine.Fusion{}, fmt.Errorf("fusion %q: %w", s, err)
	}
	switch method {
	case engine.FusionConvex:
		f := engine.DefaultConvex
		f.Alpha = v
		return f, nil
	case engine.FusionRRF:
		f := engine.DefaultRRF
		f.WDense = v
		return f, nil
	}
	return engine.Fusion{}, fmt.Errorf("fusion %q: want convex:A or rrf:W", s)
}
