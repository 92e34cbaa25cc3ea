package copyswap

import (
	"context"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/copies"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/mirror"
)

// Swap shows, in place of a result from a language's or a version's
// folder, the copy of its document that copies.Swap prefers when the walk
// never reached it (the English page of a German result to a query in
// English or of no known language): that copy's chunks alone are scored
// for the query (backend.ChunkScorer) and its best one is shown, the
// result it replaces first in its AlsoIn, when that passage matches the
// query's words as well (matchesAsWell: the query is then not in the
// result's language, as detection could not tell). The indexed paths come from the
// last refresh's manifest, read only when a result is in such a folder. A
// backend that cannot score a file's chunks (Weaviate) leaves the results
// as they are.
func Swap(ctx context.Context, ls backend.Lists, pg rank.Page, vec []float32, manifest string, results []rank.Result) ([]rank.Result, error) {
	sc, ok := ls.(backend.ChunkScorer)
	if !ok || pg.Copies == nil || !anyInCopyFolder(results) {
		return results, nil
	}
	man, err := mirror.LoadManifest(manifest)
	if err != nil {
		return results, nil // no manifest: no copy known
	}
	swaps := copiesToSwap(results, man, pg)
	if len(swaps) == 0 {
		return results, nil
	}
	paths := make([]string, 0, len(swaps))
	for _, c := range swaps {
		paths = append(paths, c)
	}
	ranking, err := rankChunksOf(ctx, ls, sc, pg, vec, paths)
	if err != nil {
		return nil, err
	}
	load, err := ls.Materialize(ctx, ranking, len(ranking))
	if err != nil {
		return nil, err
	}
	best := rank.BestPerFile(ranking)
	for i, c := range swaps {
		x, ok := best[c]
		if !ok {
			continue // no chunk of it passed the filters
		}
		path, ord := record.SplitChunkID(x.ID)
		res, err := load(x.ID, path, ord)
		if err != nil {
			return nil, err
		}
		if matchesAsWell(pg.Query.Text, results[i].Text, res.Text) {
			results[i] = pg.SwapIn(results[i], x, res)
		}
	}
	return results, nil
}

// matchesAsWell reports whether the passage copy holds at least one of
// the query's terms and as many of them as shown does. It is the query's
// language where detection has too few words to go by: a query of
// Spanish keywords ("configuración colector receptores") finds its words
// in the Spanish page and few in the English copy, which is not shown
// then; an English one finds them in the English copy (and often some
// in a translation, in its code and names).
func matchesAsWell(query, shown, copy string) bool {
	terms := analyze.Terms(query)
	in := func(text string) int {
		have := map[string]bool{}
		for _, t := range analyze.Terms(text) {
			have[t] = true
		}
		n := 0
		for _, t := range terms {
			if have[t] {
				n++
			}
		}
		return n
	}
	c := in(copy)
	return c > 0 && c >= in(shown)
}

// anyInCopyFolder reports whether a result is in a language's or a
// version's folder.
func anyInCopyFolder(results []rank.Result) bool {
	for _, r := range results {
		if r.Attachment == "" && copies.InFolderOfCopies(r.Path) {
			return true
		}
	}
	return false
}

// copiesToSwap maps the index of each result to swap to the path of the
// copy to show instead (copies.Swap over the manifest's paths), leaving
// out copies a result already shows or lists.
func copiesToSwap(results []rank.Result, man *mirror.Manifest, pg rank.Page) map[int]string {
	all := make([]string, len(man.Entries))
	for i, en := range man.Entries {
		all[i] = en.Path
	}
	listed := map[string]bool{}
	for _, r := range results {
		listed[r.Path] = true
		for _, l := range r.AlsoIn {
			listed[l.Path] = true
		}
	}
	swaps := map[int]string{}
	for i, r := range results {
		if r.Attachment != "" || !copies.InFolderOfCopies(r.Path) {
			continue
		}
		c := copies.Swap(r.Path, copies.SiblingCandidates(r.Path, all), pg.Named, pg.Copies)
		if c != "" && !listed[c] {
			swaps[i], listed[c] = c, true
		}
	}
	return swaps
}

// rankChunksOf ranks the chunks of paths alone for the query, in its mode
// and fusion (pg's): BM25 from the backend, dense from their stored
// vectors and vec, the vector the query's dense list searched with.
func rankChunksOf(ctx context.Context, ls backend.Lists, sc backend.ChunkScorer, pg rank.Page, vec []float32, paths []string) ([]rank.Fused, error) {
	ids, bm, err := sc.ChunksOf(ctx, paths)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	var de []rank.Hit
	if pg.Mode != rank.ModeBM25 && vec != nil {
		top := make([]rank.Hit, len(ids))
		for i, id := range ids {
			top[i] = rank.Hit{ID: id}
		}
		stored, err := ls.Vectors(ctx, top)
		if err != nil {
			return nil, err
		}
		de = rank.DenseOf(vec, ids, stored)
	}
	ranking, _ := rank.Rank(pg.Mode, pg.Fusion, pg.Query, 0, bm, de)
	return ranking, nil
}
