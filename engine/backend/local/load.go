package local

import (
	"fmt"
	"strconv"
	"strings"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
)

// load reads the stored fields of a chunk through the searcher's reader
// (bleve.Index.Document would open and close a reader of its own).
func (s *searcher) load(id, path string, ord int) (rank.Result, error) {
	doc, err := s.r.Document(id)
	if err != nil || doc == nil {
		return rank.Result{}, fmt.Errorf("load chunk %s#%d: %v", path, ord, err)
	}
	res := rank.Result{Path: path, Chunk: ord}
	doc.VisitFields(func(f index.Field) {
		switch f.Name() {
		case fieldText:
			res.Text = string(f.Value())
		case fieldDefs:
			res.Defs = parseDefs(string(f.Value()))
		case fieldMeta:
			parts := strings.SplitN(string(f.Value()), backend.MetaSep, 6)
			if len(parts) >= 4 {
				res.Lines[0], _ = strconv.Atoi(parts[0])
				res.Lines[1], _ = strconv.Atoi(parts[1])
				res.Section, res.Title = parts[2], parts[3]
			}
			if len(parts) >= 5 {
				res.Page, _ = strconv.Atoi(parts[4])
			}
			if len(parts) == 6 {
				res.Attachment = parts[5]
			}
		}
	})
	return res, nil
}
