package engine

import (
	"fmt"
	"strconv"
	"strings"

	index "github.com/blevesearch/bleve_index_api"
)

// Location is where else a collapsed result's passage appears.
type Location struct {
	Path       string `json:"path"`
	Attachment string `json:"attachment,omitempty"`
	Lines      [2]int `json:"lines"`
}

// page is the walk of a ranking into results: the per-file limit, the
// collapse of near-identical passages and the stored fields of what is kept.
type page struct {
	k, perFile int
	collapse   bool
	explain    bool
	mode       string
	f          Fusion
}

// materialize walks the ranking, applies the per-file limit, collapses
// results whose chunk text is the same but for white space and version
// numbers (collapseKey) into the best-ranked one (unless
// collapse is off: the others go into its AlsoIn, and do not count against
// their file's limit) and loads the stored fields of the results it keeps.
// It also returns how many results it collapsed.
func (s *searcher) materialize(ranking []fused, p page) ([]Result, int, error) {
	seen := map[string]int{}
	var twins collapser // results by collapseKey
	out := []Result{}
	collapsed := 0
	for _, x := range ranking {
		if len(out) == p.k {
			break
		}
		path, ord := splitChunkID(x.id)
		if seen[path] >= p.perFile && !mayAttach(path) {
			continue
		}
		res, err := s.load(x.id, path, ord)
		if err != nil {
			return nil, 0, err
		}
		key := entryKey(path, res.Attachment)
		if seen[key] >= p.perFile {
			continue
		}
		if p.collapse {
			if i := twins.find(res.Text, out); i >= 0 {
				out[i].AlsoIn = append(out[i].AlsoIn, Location{Path: path, Attachment: res.Attachment, Lines: res.Lines})
				collapsed++
				continue
			}
			twins.add(len(out))
		}
		seen[key]++
		res.Rank, res.Score, res.Scores = len(out)+1, x.score, x.scores()
		if p.explain {
			res.Explain = x.explain(p.mode, p.f)
		}
		out = append(out, res)
	}
	return out, collapsed, nil
}

func (x fused) scores() Scores {
	var s Scores
	if x.bm25Rank > 0 {
		b, r := x.bm25, x.bm25Rank
		s.BM25, s.BM25Rank = &b, &r
	}
	if x.denseRank > 0 {
		d, r := x.dense, x.denseRank
		s.Vector, s.VectorRank = &d, &r
	}
	return s
}

// explain says how a result's score came about.
func (x fused) explain(mode string, f Fusion) string {
	list := func(name string, rank int, score float64) string {
		if rank == 0 {
			return name + " absent"
		}
		return fmt.Sprintf("%s rank %d score %.4f", name, rank, score)
	}
	switch mode {
	case ModeBM25:
		return "bm25: " + list("bm25", x.bm25Rank, x.bm25)
	case ModeVector:
		return "vector: " + list("vector", x.denseRank, x.dense)
	}
	var s string
	switch f.Method {
	case FusionAdaptive:
		s = x.explainAdaptive(f, list)
	case FusionRRF:
		s = fmt.Sprintf("%s: %s (weight %.3g), %s (weight %.3g) -> %.5f", f, list("bm25", x.bm25Rank, x.bm25), f.WBM25,
			list("vector", x.denseRank, x.dense), f.WDense, x.score)
	default:
		s = fmt.Sprintf("%s: %s (weight %.3g, scaled by the list max), %s (weight %.3g, min-max over the list) -> %.5f", f,
			list("bm25", x.bm25Rank, x.bm25), f.Alpha, list("vector", x.denseRank, x.dense), 1-f.Alpha, x.score)
	}
	if x.bm25Rank == 0 && f.Floor != 0 {
		s += fmt.Sprintf("; vector-only, kept: similarity %.4f above the floor", x.dense)
	}
	return s
}

// load reads the stored fields of a chunk through the searcher's reader
// (bleve.Index.Document would open and close a reader of its own).
func (s *searcher) load(id, path string, ord int) (Result, error) {
	if s.remote != nil {
		return s.remote(id)
	}
	doc, err := s.r.Document(id)
	if err != nil || doc == nil {
		return Result{}, fmt.Errorf("load chunk %s#%d: %v", path, ord, err)
	}
	res := Result{Path: path, Chunk: ord}
	doc.VisitFields(func(f index.Field) {
		switch f.Name() {
		case fieldText:
			res.Text = string(f.Value())
		case fieldMeta:
			parts := strings.SplitN(string(f.Value()), metaSep, 6)
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
