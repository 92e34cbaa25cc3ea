package weaviate

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/fingerprint"
)

// weaviateState is a Weaviate state opened for reading: the alias readers
// query, which names the committed collection whatever refreshes do.
type weaviateState struct {
	c *Client
	// alias is the name queries go to: the root's alias, or within one
	// search the collection it resolved to (see at).
	alias string
	langs []string
	ws    Settings
	// scoped: multilingual analysis, where each language's analysis of a
	// query scores only in that language's chunks (local/querylang.go).
	scoped bool
	schema int // the object schema the collection was built with (Schema)
}

var _ backend.State = (*weaviateState)(nil)

func (*weaviateState) Close() error { return nil }

func (w *weaviateState) Verify(ctx context.Context, sc *fingerprint.Sidecar) (string, error) {
	n, err := w.c.Count(ctx, w.alias)
	if err != nil {
		return "", fmt.Errorf("weaviate: %w", err)
	}
	if n != sc.Counts.Chunks {
		return fmt.Sprintf("alias %s holds %d chunks, sidecar says %d", w.alias, n, sc.Counts.Chunks), nil
	}
	return "", nil
}

// weaviateLists are one query's lists on the collection the alias named
// when the query started: the cluster ranks BM25 (over autorag's analyzed
// tokens) and the vector list separately, and the engine fuses them
// exactly as the local backend's (package rank); the results' text and
// metadata are then fetched for the chunks kept.
type weaviateLists struct {
	w *weaviateState
	q backend.Query
	// depth is how deep the cluster ranks BM25, vdepth the vector list
	// (as deep as the local dense list): the path filter applies here,
	// after the cluster ranked, so with one both go 20 times deeper.
	depth, vdepth int
}

var _ backend.Lists = (*weaviateLists)(nil)

// Query resolves the alias (at) for the query's requests.
func (w *weaviateState) Query(ctx context.Context, q backend.Query) (backend.Lists, error) {
	if w.schema < Schema {
		return nil, backend.Usagef("the weaviate index was stored by an older autorag (object schema %d, want %d): run `autorag refresh` to rebuild it", w.schema, Schema)
	}
	w, err := w.at(ctx)
	if err != nil {
		return nil, err
	}
	l := &weaviateLists{w: w, q: q, depth: max(q.Want, 8*q.K*q.PerFile), vdepth: q.Want}
	if q.Filter != nil {
		l.depth *= 20
		l.vdepth *= 20
	}
	return l, nil
}

func (l *weaviateLists) Lexical(ctx context.Context) ([]rank.Hit, int, error) {
	return l.w.lexical(ctx, l.q.Text, l.q.Facets, l.q.Filter, l.depth)
}

func (l *weaviateLists) Dense(ctx context.Context, v []float32) ([]rank.Hit, error) {
	hits, err := l.w.list(ctx, Query{Mode: Vector, Vector: v, K: l.vdepth, Facets: l.q.Facets}, l.q.Filter, l.vdepth)
	return hits[:min(len(hits), l.q.Want)], err
}

func (l *weaviateLists) Vectors(ctx context.Context, top []rank.Hit) (func(string) ([]float32, bool), error) {
	return l.w.vectors(ctx, top)
}

// Materialize fetches the stored fields of the first n chunks of the
// ranking in one request; the rest, should the walk need them, one by one.
func (l *weaviateLists) Materialize(ctx context.Context, ranking []rank.Fused, n int) (func(id, path string, ord int) (rank.Result, error), error) {
	docs, err := l.w.prefetch(ctx, ranking, n)
	if err != nil {
		return nil, err
	}
	return func(id, _ string, _ int) (rank.Result, error) { return l.w.load(ctx, docs, id) }, nil
}

func (*weaviateLists) Close() error { return nil }

// at returns the state with its alias resolved to the collection it names
// now: a search's lists and texts are separate requests, and an alias swap
// between them would mix two states in one answer. A search with a where
// argument (filters, a language) must name a collection anyway: Weaviate
// v1.35.2 checks a where filter against the class the query names and does
// not resolve an alias there ("class ... does not exist in schema").
func (w *weaviateState) at(ctx context.Context) (*weaviateState, error) {
	coll, err := w.c.ResolveAlias(ctx, w.alias)
	if err != nil {
		return nil, fmt.Errorf("weaviate: %w", err)
	}
	r := *w
	r.alias = coll
	return &r, nil
}

// vectors fetches the stored vectors of the listed chunks and returns
// their lookup.
func (w *weaviateState) vectors(ctx context.Context, hits []rank.Hit) (func(id string) ([]float32, bool), error) {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = wireID(h.ID)
	}
	objs, err := w.c.Vectors(ctx, w.alias, ids, w.ws)
	if err != nil {
		return nil, fmt.Errorf("weaviate: %w", err)
	}
	byID := make(map[string][]float32, len(objs))
	for _, ob := range objs {
		byID[fromWire(ob.ChunkID)] = ob.Vector
	}
	return func(id string) ([]float32, bool) { v, ok := byID[id]; return v, ok }, nil
}

// lexical is the BM25 list and the number of distinct query terms. With
// scoped analysis over chunks of several languages it runs one search per
// language, restricted to that language's chunks and with that language's
// analysis of the query, and merges them by score: each chunk has one
// language, so the merged list is the top depth of all of them, and no
// language's terms score in another's chunks, as locally (local/querylang.go).
// One difference remains: Weaviate computes a term's idf over the whole
// shard, where the local backend counts only the chunks of the term's
// languages.
func (w *weaviateState) lexical(ctx context.Context, text string, facets []string, filter *backend.PathFilter, depth int) ([]rank.Hit, int, error) {
	if !w.perLanguage() {
		terms := analyze.TermsIn(text, w.langs)
		q := Query{Mode: BM25, Tokens: strings.Join(terms, " "), K: depth, Facets: facets}
		l, err := w.list(ctx, q, filter, depth)
		return l, len(terms), err
	}
	lists := make([][]rank.Hit, len(w.langs))
	errs := make([]error, len(w.langs))
	distinct := map[string]bool{}
	var wg sync.WaitGroup
	for i, code := range w.langs {
		terms := analyze.TermsIn(text, []string{code})
		for _, t := range terms {
			distinct[t] = true
		}
		q := Query{Mode: BM25, Tokens: strings.Join(terms, " "), K: depth, Facets: facets, Lang: code}
		wg.Go(func() { lists[i], errs[i] = w.list(ctx, q, filter, depth) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, 0, err
	}
	merged := slices.Concat(lists...)
	slices.SortStableFunc(merged, func(a, b rank.Hit) int { return cmp.Compare(b.Score, a.Score) })
	return merged[:min(len(merged), depth)], len(distinct), nil
}

// perLanguage reports a lexical list searched language by language.
func (w *weaviateState) perLanguage() bool { return w.scoped && len(w.langs) > 1 }

// list runs one ranked search and keeps the hits that pass the filter.
func (w *weaviateState) list(ctx context.Context, q Query, filter *backend.PathFilter, depth int) ([]rank.Hit, error) {
	if q.Mode == BM25 && q.Tokens == "" {
		return nil, nil // nothing left of the query after analysis
	}
	hits, err := w.c.Search(ctx, w.alias, q, w.ws)
	if err != nil {
		return nil, fmt.Errorf("weaviate: %w", err)
	}
	out := make([]rank.Hit, 0, min(len(hits), depth))
	for _, h := range hits {
		if id := fromWire(h.ChunkID); filter.Match(id) {
			out = append(out, rank.Hit{ID: id, Score: h.Score})
		}
	}
	return out, nil
}

// prefetch loads the stored fields of the first n chunks of the ranking in
// one request; the rest, should the walk need them, one by one.
func (w *weaviateState) prefetch(ctx context.Context, ranking []rank.Fused, n int) (map[string]rank.Result, error) {
	ids := make([]string, 0, n)
	for _, x := range ranking[:min(n, len(ranking))] {
		ids = append(ids, wireID(x.ID))
	}
	docs := map[string]rank.Result{}
	return docs, w.fetch(ctx, docs, ids)
}

func (w *weaviateState) fetch(ctx context.Context, docs map[string]rank.Result, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	objs, err := w.c.Lookup(ctx, w.alias, ids, w.ws)
	if err != nil {
		return fmt.Errorf("weaviate: %w", err)
	}
	for _, ob := range objs {
		id := fromWire(ob.ChunkID)
		path, ord := record.SplitChunkID(id)
		var m chunkMeta
		if err := json.Unmarshal([]byte(ob.Meta), &m); err != nil {
			return fmt.Errorf("weaviate: chunk %s#%d: bad metadata: %w", path, ord, err)
		}
		docs[id] = rank.Result{Path: path, Chunk: ord, Lines: [2]int{m.Start, m.End}, Section: m.Section, Title: m.Title, Page: m.Page, Attachment: m.Attach, Defs: m.Defs, Text: ob.Text}
	}
	return nil
}

func (w *weaviateState) load(ctx context.Context, docs map[string]rank.Result, id string) (rank.Result, error) {
	if r, ok := docs[id]; ok {
		return r, nil
	}
	if err := w.fetch(ctx, docs, []string{wireID(id)}); err != nil {
		return rank.Result{}, err
	}
	if r, ok := docs[id]; ok {
		return r, nil
	}
	path, ord := record.SplitChunkID(id)
	return rank.Result{}, fmt.Errorf("load chunk %s#%d: not in the collection", path, ord)
}
