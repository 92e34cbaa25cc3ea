package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/mirror"
)

// Query filters on metadata. Every file's first chunk carries its filter
// terms in fieldFacet: "type=<doc|code|pdf|office|email|html>", "lang=...",
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
		terms = append(terms, filterTerm(k, v))
	}
	if o.Type != "" {
		if !slices.Contains(Types, o.Type) {
			return nil, fmt.Errorf("%w: --type %q: want one of %s", ErrBadQuery, o.Type, strings.Join(Types, ", "))
		}
		terms = append(terms, filterTerm("type", o.Type))
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

// withFacets narrows filter to the files (and e-mail chunks) that have
// every term: nil terms leave it as it is.
func (s *searcher) withFacets(ctx context.Context, filter *pathFilter, terms []string) (*pathFilter, error) {
	if len(terms) == 0 {
		return filter, nil
	}
	var out *pathFilter
	for _, t := range terms {
		with, err := s.filesWith(ctx, t)
		if err != nil {
			return nil, err
		}
		if out != nil {
			intersect(out.paths, with.paths)
			intersect(out.chunks, with.chunks)
		} else {
			out = with
		}
	}
	if filter != nil {
		out.spec = filter.spec
	}
	return out, nil
}

// intersect deletes from a the keys that b lacks.
func intersect(a, b map[string]bool) {
	for k := range a {
		if !b[k] {
			delete(a, k)
		}
	}
}

// filesWith returns the files that carry filter term t, and the chunks of
// e-mail files (by chunk ID) that do.
func (s *searcher) filesWith(ctx context.Context, t string) (*pathFilter, error) {
	p, err := openPostings(ctx, s.r, fieldFacet, t, false, "filter")
	if err != nil {
		return nil, err
	}
	defer p.close()
	out := &pathFilter{paths: map[string]bool{}, chunks: map[string]bool{}}
	for {
		d, err := p.next(ctx)
		if err != nil {
			return nil, err
		}
		if d == nil {
			return out, nil
		}
		id, err := s.r.ExternalID(d.ID)
		if err != nil {
			return nil, p.fail(err)
		}
		if path, _ := record.SplitChunkID(id); mayAttach(path) {
			out.chunks[id] = true
		} else {
			out.paths[path] = true
		}
	}
}

// facetField indexes a file's filter terms as whole tokens.
func facetField(terms []string) *document.TextField {
	return document.NewTextFieldCustom(fieldFacet, nil, []byte(strings.Join(terms, "\x00")), index.IndexField, termsAnalyzer{})
}

// termsAnalyzer yields one token per NUL-separated term, unchanged.
type termsAnalyzer struct{}

func (termsAnalyzer) Analyze(b []byte) analysis.TokenStream {
	var ts analysis.TokenStream
	pos, off := 1, 0
	for _, t := range strings.Split(string(b), "\x00") {
		if t != "" {
			ts = append(ts, &analysis.Token{Term: []byte(t), Start: off, End: off + len(t), Position: pos, Type: analysis.AlphaNumeric})
			pos++
		}
		off += len(t) + 1
	}
	return ts
}
