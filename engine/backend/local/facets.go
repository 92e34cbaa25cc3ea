package local

import (
	"context"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/record"
)

// Filter terms: every file's first chunk carries its filter terms in
// fieldFacet (engine/split says which), an e-mail entry's on
// each of its chunks. A query with filters reads the postings of its
// terms to find the files that have all of them, and both lists keep only
// those files' chunks.

// withFacets narrows filter to the files (and e-mail chunks) that have
// every term: nil terms leave it as it is.
func (s *searcher) withFacets(ctx context.Context, filter *backend.PathFilter, terms []string) (*backend.PathFilter, error) {
	if len(terms) == 0 {
		return filter, nil
	}
	var out *backend.PathFilter
	for _, t := range terms {
		with, err := s.filesWith(ctx, t)
		if err != nil {
			return nil, err
		}
		if out != nil {
			intersect(out.Paths, with.Paths)
			intersect(out.Chunks, with.Chunks)
		} else {
			out = with
		}
	}
	if filter != nil {
		out.Spec = filter.Spec
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
func (s *searcher) filesWith(ctx context.Context, t string) (*backend.PathFilter, error) {
	p, err := openPostings(ctx, s.r, fieldFacet, t, false, "filter")
	if err != nil {
		return nil, err
	}
	defer p.close()
	out := &backend.PathFilter{Paths: map[string]bool{}, Chunks: map[string]bool{}}
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
		if path := record.ChunkPath(id); backend.MayAttach(path) {
			out.Chunks[id] = true
		} else {
			out.Paths[path] = true
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
