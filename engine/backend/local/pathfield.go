package local

import (
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
)

//semguard:begin bleve-path

// pathField is the indexed path words of a chunk (analyze.PathText),
// analyzed with the English chain: identifiers split, words stemmed, as a
// code chunk's body. Its length is its chunk's body length, not its own
// token count: the path field scores without length normalization
// (bm25.pathModel), and the tiered scorer (prune.TopKTiered) needs every
// term of a query to put a chunk in the same length bucket, which it reads
// from each term's postings.
type pathField struct {
	*document.TextField
	body *bodyField
}

var _ index.Field = (*pathField)(nil)

func newPathField(c *backend.Chunk, body *bodyField) *pathField {
	return &pathField{
		TextField: document.NewTextFieldCustom(fieldPath, nil, []byte(analyze.PathText(c.Path)), index.IndexField, analyze.Analyzer()),
		body:      body,
	}
}

// AnalyzedLength is the body's length (the body is analyzed first: it is
// the document's first field, and bleve reads lengths once every field is
// analyzed).
func (f *pathField) AnalyzedLength() int { return f.body.AnalyzedLength() }

//semguard:end bleve-path
