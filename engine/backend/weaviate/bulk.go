package weaviate

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
)

// flatMax is the largest collection Pair.Build gives a flat vector index:
// an exact scan, the local backend's own search, which Weaviate builds
// with no graph inserts (an import of 6,000 chunks on 3 nodes took 2.3×
// less time than into HNSW, git log -p docs/BENCHMARKS.md, "Weaviate bulk import").
// Past it a query's scan would read too much, and HNSW is worth its build.
const flatMax = 200_000

// vectorIndexFor is the vector index of a collection built with n objects.
func vectorIndexFor(n int, s Settings) string {
	if s.VectorIndex != "" {
		return s.VectorIndex
	}
	if n <= flatMax {
		return "flat"
	}
	return "hnsw"
}

// buildBoth creates the epoch's two collections and imports objs into
// both at once (each import bounded by s.Concurrency batches in flight):
// the collections are independent until the alias moves.
func (p *Pair) buildBoth(ctx context.Context, names [2]string, objs []Object) error {
	s := p.s
	s.VectorIndex = vectorIndexFor(len(objs), p.s)
	for _, name := range names {
		if err := p.c.DropCollection(ctx, name); err != nil {
			return err
		}
		if err := p.c.CreateCollection(ctx, name, s); err != nil {
			return err
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	for _, name := range names {
		g.Go(func() error {
			if err := p.c.Import(gctx, name, objs, p.s); err != nil {
				return fmt.Errorf("build %s: %w", name, err)
			}
			return nil
		})
	}
	return g.Wait()
}
