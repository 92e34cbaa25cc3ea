package local

import (
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
)

// defsField stores a chunk's definitions and indexes each name by its
// match key (rank.DefKey: TypeAdapter, type_adapter and typeAdapter are
// one term), so the chunk that defines a name can be found and each hit
// carries what it defines. The stored value is the definitions joined by
// backend.DefSep, each "name MetaSep kind MetaSep line".
func defsField(defs []backend.ChunkDef) *document.TextField {
	var b strings.Builder
	for i, d := range defs {
		if i > 0 {
			b.WriteString(backend.DefSep)
		}
		b.WriteString(d.Name + backend.MetaSep + d.Kind + backend.MetaSep + strconv.Itoa(d.Line))
	}
	return document.NewTextFieldCustom(fieldDefs, nil, []byte(b.String()), index.IndexField|index.StoreField, defsAnalyzer{})
}

// defsAnalyzer yields the match key of each stored definition's name, once
// per key.
type defsAnalyzer struct{}

func (defsAnalyzer) Analyze(b []byte) analysis.TokenStream {
	var ts analysis.TokenStream
	seen := map[string]bool{}
	for _, d := range parseDefs(string(b)) {
		key := rank.DefKey(d.Name)
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		ts = append(ts, &analysis.Token{Term: []byte(key), Start: 0, End: len(b), Position: len(ts) + 1, Type: analysis.AlphaNumeric})
	}
	return ts
}

// parseDefs reads a stored definitions value (defsField). It cuts the
// entries and fields in place (no slices of parts): the code signals parse
// the definitions of a hundred chunks a query.
func parseDefs(s string) []rank.Def {
	if s == "" {
		return nil
	}
	out := make([]rank.Def, 0, strings.Count(s, backend.DefSep)+1)
	for more := true; more; {
		var e string
		e, s, more = strings.Cut(s, backend.DefSep)
		name, rest, ok := strings.Cut(e, backend.MetaSep)
		if !ok {
			continue
		}
		kind, num, ok := strings.Cut(rest, backend.MetaSep)
		if !ok {
			continue
		}
		line, _ := strconv.Atoi(num)
		out = append(out, rank.Def{Name: name, Kind: kind, Line: line})
	}
	return out
}
