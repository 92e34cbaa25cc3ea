package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/integrity"
	"github.com/autorag/autorag/engine/split"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/mirror"
)

// ErrNoIndex reports a root that has no committed index yet.
var ErrNoIndex = errors.New("no index yet: run `autorag refresh` first")

// readCommitted reads the sidecar at path: ErrNoIndex when there is none.
func readCommitted(path string) (*fingerprint.Sidecar, error) {
	sc, err := fingerprint.ReadSidecar(path)
	if errors.Is(err, fingerprint.ErrNoSidecar) {
		return nil, ErrNoIndex
	}
	return sc, err
}

// QueryOptions describe one search.
type QueryOptions struct {
	Text     string
	K        int    // results to return; default 10
	PerFile  int    // results per source file; default 1
	PathGlob string // only paths matching this pattern (package pathspec)
	// PathGlobs are more --path patterns: a path must match one of the
	// patterns of PathGlob and PathGlobs, and none of their exclusions.
	PathGlobs []string
	Filters   []string // only files with every one of these key=value fields (see filterTerms)
	Type      string   // only files of this type: doc, code, pdf, office, email, html
	Mode      string   // ModeHybrid (default when the index has vectors), ModeBM25, ModeVector
	Explain   bool     // fill Result.Explain
	// NoCollapse keeps results whose chunk text is the same (but for white
	// space and version numbers) apart; by default they collapse into the
	// best-ranked one (Result.AlsoIn).
	NoCollapse bool
}

// pathPatterns are o's --path patterns.
func (o QueryOptions) pathPatterns() []string {
	if o.PathGlob == "" {
		return o.PathGlobs
	}
	return append([]string{o.PathGlob}, o.PathGlobs...)
}

// QueryResult is the answer to a query.
type QueryResult struct {
	Fingerprint string
	Generation  string
	Mode        string
	Fusion      string // the fusion used in hybrid mode
	Results     []Result
	// Dropped counts the chunks only the vector list found, with a
	// similarity below the fusion's floor, that hybrid mode left out.
	Dropped int
	// Explain, with QueryOptions.Explain, says what the query did as a
	// whole: the fusion, and what the floor dropped.
	Explain string
	// Hint says why a query with a --path filter found nothing when no
	// indexed file matches the filter at all, or that a hybrid query
	// matched no word of the index (rank.NoLexicalHint).
	Hint string
	// Reranked: whether a configured reranker re-scored the results; else RerankError says why (fused order kept).
	Reranked    *bool
	RerankError string
	TookMS      float64
}

// Query answers o from the committed generation. It never takes the
// refresh lock and never waits for a writer: it opens the generation the
// sidecar names read-only, and if that generation was collected in the
// meantime it retries once from the new sidecar.
func (e *Engine) Query(ctx context.Context, o QueryOptions) (*QueryResult, error) {
	return e.QueryAt(ctx, nil, o)
}

// QueryAt is Query for a caller that has read the sidecar already (the CLI
// reads it for its cache key): it opens the generation sc names, and only
// when that fails (collected by a newer commit) reads the sidecar again.
// A nil sc reads it.
func (e *Engine) QueryAt(ctx context.Context, sc *fingerprint.Sidecar, o QueryOptions) (*QueryResult, error) {
	start := time.Now()
	if err := backend.CheckText(o.Text); err != nil {
		return nil, err
	}
	filter, err := newPathFilter(o.pathPatterns())
	if err != nil {
		return nil, err
	}
	var g *Generation
	if sc != nil {
		g, _ = e.OpenGeneration(sc) // on failure, openCommitted says why
	}
	if g == nil {
		if g, err = e.openCommitted(); err != nil {
			return nil, err
		}
	}
	defer g.Close()
	res, err := e.searchGuarded(ctx, g, o, filter)
	if errors.Is(err, context.Canceled) || errors.Is(err, ErrUsage) || errors.Is(err, ErrDamaged) {
		return nil, err // what was asked, or the damage found, says it all
	}
	if err != nil {
		return nil, fmt.Errorf("generation %s: %w", g.Sidecar.Generation, err)
	}
	return e.finish(ctx, o, res, filter, start)
}

// openCommitted opens the generation the sidecar names. An open generation
// stays readable when a refresh collects it (its files are mapped at open),
// so only opening races with the collection: when it fails, the sidecar is
// read again and a newer generation it names is tried once.
func (e *Engine) openCommitted() (*Generation, error) {
	var failed string // the generation that failed to open
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		sc, err := readCommitted(e.Layout.SidecarPath())
		if err != nil {
			return nil, err
		}
		if attempt > 0 && sc.Generation == failed {
			break
		}
		g, err := e.OpenGeneration(sc)
		if err == nil {
			return g, nil
		}
		failed, lastErr = sc.Generation, fmt.Errorf("generation %s: %w", sc.Generation, err)
		if d := e.damage(sc); d != nil {
			lastErr = fmt.Errorf("%w; opening it: %v", d, err)
		}
	}
	return nil, lastErr
}

// Generation is a committed generation opened for reading: the sidecar
// that names it and its state in the storage that wrote it (package backend).
// Long-running callers keep one open across queries; it stays valid after a
// newer generation is committed.
type Generation struct {
	Sidecar *fingerprint.Sidecar
	st      backend.State
}

// OpenGeneration opens the generation sc names, read-only, from the backend
// that wrote it.
func (e *Engine) OpenGeneration(sc *fingerprint.Sidecar) (*Generation, error) {
	e = e.reading(sc)
	e.assumeRecordedDims(sc)
	st, err := e.storageFor(sc)
	if err != nil {
		return nil, err
	}
	s, err := st.Open(sc)
	if err != nil {
		return nil, err
	}
	return &Generation{Sidecar: sc, st: s}, nil
}

// Close releases the generation's files.
func (g *Generation) Close() error { return g.st.Close() }

// Search answers o from an open generation.
func (e *Engine) Search(ctx context.Context, g *Generation, o QueryOptions) (*QueryResult, error) {
	start := time.Now()
	filter, err := newPathFilter(o.pathPatterns())
	if err != nil {
		return nil, err
	}
	res, err := e.searchGuarded(ctx, g, o, filter)
	if err != nil {
		return nil, err
	}
	return e.finish(ctx, o, res, filter, start)
}

// finish is what Query and Search do after the search: rerank res, say
// why the filter found nothing (when it knows), add the metadata o asks
// for, and time the answer from start.
func (e *Engine) finish(ctx context.Context, o QueryOptions, res *QueryResult, filter *backend.PathFilter, start time.Time) (*QueryResult, error) {
	if err := e.rerank(ctx, o, res); err != nil {
		return nil, err
	}
	res.Hint = cmp.Or(e.filterHint(res, filter), res.Hint)
	e.addMeta(res, o)
	res.TookMS = ms(time.Since(start))
	return res, nil
}

// searchGuarded is search of g, where a fault or a file of g no longer as
// committed is g's damage (integrity.Guarded).
func (e *Engine) searchGuarded(ctx context.Context, g *Generation, o QueryOptions, filter *backend.PathFilter) (*QueryResult, error) {
	return integrity.Guarded(e.Layout.Dir, e.Layout.SidecarPath(), g.Sidecar, true, func() (*QueryResult, error) {
		return e.search(ctx, g, e.widen(o), filter)
	})
}

// newPathFilter compiles the --path patterns (backend.PathFilter); nil
// when there are none.
func newPathFilter(patterns []string) (*backend.PathFilter, error) {
	f, err := backend.NewPathFilter(patterns)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return f, nil
}

// filterHint is QueryResult.Hint: when res is empty and no file the last
// refresh mirrored matches the --path patterns, it says so (a misspelt
// folder gives no results, and a silent empty answer looks like one).
func (e *Engine) filterHint(res *QueryResult, f *backend.PathFilter) string {
	if len(res.Results) > 0 || f == nil || f.Spec == nil {
		return ""
	}
	man, err := mirror.LoadManifest(e.Layout.ManifestPath())
	if err != nil {
		return ""
	}
	for _, en := range man.Entries {
		if f.Spec.Match(en.Path) {
			return ""
		}
	}
	return fmt.Sprintf("--path %s matches none of the %d indexed files (paths are relative to the root, / separated)", f.Spec, len(man.Entries))
}

// Query filters on metadata. Every file's first chunk carries its filter
// terms (Chunk.Facets, indexed by each backend): "type=<doc|code|pdf|office|email|html>", "lang=...",
// "title=...", one "key=value" per metadata field (frontmatter scalars,
// document properties, e-mail headers) and "tag=..." per tag, lowercased.
// A query with filters reads the postings of its terms to find the files
// that have all of them, and both lists keep only those files' chunks.
//
// E-mail files are the exception: an attachment is an entry of its own
// with its own type and fields, so every chunk of an e-mail file carries
// the terms of its entry (the message's, or its attachment's), and filters
// select those chunks rather than the file.

// Types are the values --type accepts.
var Types = mirror.Types

// filterTerms validates o.Filters and o.Type and returns the terms a file
// must have, sorted and without repeats.
func filterTerms(o QueryOptions) ([]string, error) {
	var terms []string
	for _, f := range o.Filters {
		k, v, ok := strings.Cut(f, "=")
		if !ok || strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
			return nil, fmt.Errorf("%w: --filter %q: want key=value", ErrBadQuery, f)
		}
		terms = append(terms, split.FilterTerm(k, v))
	}
	if o.Type != "" {
		if !slices.Contains(Types, o.Type) {
			return nil, fmt.Errorf("%w: --type %q: want one of %s", ErrBadQuery, o.Type, strings.Join(Types, ", "))
		}
		terms = append(terms, split.FilterTerm("type", o.Type))
	}
	slices.Sort(terms)
	return slices.Compact(terms), nil
}

// CheckFilters reports filters or a type that a query would reject.
func CheckFilters(o QueryOptions) error {
	_, err := filterTerms(o)
	return err
}

// filterKey is the filter part of a cached answer's key: the terms, which
// equal filters share whatever their spelling.
func filterKey(o QueryOptions) string {
	terms, err := filterTerms(o)
	if err != nil {
		return "invalid"
	}
	return "filters=" + strings.Join(terms, "\x00")
}

// ErrBadQuery reports query options that cannot be answered (a usage error).
var ErrBadQuery = fmt.Errorf("bad query")

// OpenCommitted opens the generation the sidecar names, for a caller that
// runs many searches on one generation (Search); close it when done.
func (e *Engine) OpenCommitted() (*Generation, error) { return e.openCommitted() }
