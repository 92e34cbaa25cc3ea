package local

import (
	"context"
	"fmt"

	index "github.com/blevesearch/bleve_index_api"
)

// postings walks the documents of one term in one field of a bleve index:
// BM25 scoring (bm25list.go, querylang.go), filter terms (facets.go) and
// the chunk languages (querylang.go) all read postings this way. Every
// 1024 documents it checks the context; its errors start with what and
// the term (`postings of "heron": …`).
type postings struct {
	tfr        index.TermFieldReader
	tfd        index.TermFieldDoc
	seen       int
	what, term string
}

// openPostings opens term's postings in field; freqs asks for the term
// frequency and the field's length norm of each document.
func openPostings(ctx context.Context, r index.IndexReader, field, term string, freqs bool, what string) (postings, error) {
	p := postings{what: what, term: term}
	tfr, err := r.TermFieldReader(ctx, []byte(term), field, freqs, freqs, false)
	if err != nil {
		return p, p.fail(err)
	}
	p.tfr = tfr
	return p, nil
}

func (p *postings) fail(err error) error { return fmt.Errorf("%s %q: %w", p.what, p.term, err) }

// count is the number of documents holding the term.
func (p *postings) count() uint64 { return p.tfr.Count() }

// next returns the next document, or nil after the last.
func (p *postings) next(ctx context.Context) (*index.TermFieldDoc, error) {
	if p.seen%1024 == 0 && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	p.seen++
	d, err := p.tfr.Next(&p.tfd)
	if err != nil {
		return nil, p.fail(err)
	}
	return d, nil
}

func (p *postings) close() error { return p.tfr.Close() }
