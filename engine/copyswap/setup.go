package copyswap

import (
	"strings"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/mirrorview"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/mirror"
)

// Setup sets how pg, a page with collapse on, collapses copies of one
// document across folders: their signatures come from the mirrored
// documents (docs opens them), and the copy shown is the one the query's
// words, the --path patterns or the query's language name.
func Setup(pg rank.Page, patterns []string, docs func() func(path string) *mirror.Doc) rank.Page {
	if !pg.Collapse {
		return pg
	}
	pg.Copies = mirrorview.Signatures(docs)
	pg.Named = append(strings.Fields(strings.ToLower(pg.Query.Text)), patterns...)
	if l := analyze.DetectQuery(pg.Query.Text); l != "" {
		pg.Named = append(pg.Named, l) // a translation in the query's language is shown
	}
	return pg
}
