package rank

import (
	"fmt"

	"github.com/autorag/autorag/engine/record"
)

// Location is where else a collapsed result's passage appears.
type Location struct {
	Path       string `json:"path"`
	Attachment string `json:"attachment,omitempty"`
	Lines      [2]int `json:"lines"`
}

// Page is the walk of a ranking into results: the per-file limit, the
// collapse of near-identical passages and the stored fields of what is kept.
type Page struct {
	K, PerFile int
	Collapse   bool
	Explain    bool
	Mode       string
	Fusion     Fusion
	Query      Query
}

// Walk walks the ranking, applies the per-file limit, collapses
// results whose chunk text is the same but for white space and version
// numbers (collapseKey) into the best-ranked one (unless
// collapse is off: the others go into its AlsoIn, and do not count against
// their file's limit) and loads the stored fields of the results it keeps
// with load. It also returns how many results it collapsed.
func (p Page) Walk(ranking []Fused, load func(id, path string, ord int) (Result, error)) ([]Result, int, error) {
	seen := map[string]int{}
	var twins collapser // results by collapseKey
	out := []Result{}
	collapsed := 0
	for _, x := range ranking {
		if len(out) == p.K {
			break
		}
		path, ord := record.SplitChunkID(x.ID)
		if seen[path] >= p.PerFile && !p.Query.mayAttach(path) {
			continue
		}
		res, err := load(x.ID, path, ord)
		if err != nil {
			return nil, 0, err
		}
		key := record.EntryKey(path, res.Attachment)
		if seen[key] >= p.PerFile {
			continue
		}
		if p.Collapse {
			if i := twins.find(res.Text, out); i >= 0 {
				out[i].AlsoIn = append(out[i].AlsoIn, Location{Path: path, Attachment: res.Attachment, Lines: res.Lines})
				collapsed++
				continue
			}
			twins.add(len(out))
		}
		seen[key]++
		res.Rank, res.Score, res.Scores = len(out)+1, x.Score, x.scores()
		if p.Explain {
			res.Explain = x.explain(p.Mode, p.Fusion, p.Query)
		}
		out = append(out, res)
	}
	return out, collapsed, nil
}

func (x Fused) scores() Scores {
	var s Scores
	if x.BM25Rank > 0 {
		b, r := x.BM25, x.BM25Rank
		s.BM25, s.BM25Rank = &b, &r
	}
	if x.DenseRank > 0 {
		d, r := x.Dense, x.DenseRank
		s.Vector, s.VectorRank = &d, &r
	}
	return s
}

// explain says how a result's score came about.
func (x Fused) explain(mode string, f Fusion, q Query) string {
	list := func(name string, rank int, score float64) string {
		if rank == 0 {
			return name + " absent"
		}
		return fmt.Sprintf("%s rank %d score %.4f", name, rank, score)
	}
	switch mode {
	case ModeBM25:
		return "bm25: " + list("bm25", x.BM25Rank, x.BM25)
	case ModeVector:
		return "vector: " + list("vector", x.DenseRank, x.Dense)
	}
	var s string
	switch f.Method {
	case FusionAdaptive:
		s = x.explainAdaptive(f, q, list)
	case FusionRRF:
		s = fmt.Sprintf("%s: %s (weight %.3g), %s (weight %.3g) -> %.5f", f, list("bm25", x.BM25Rank, x.BM25), f.WBM25,
			list("vector", x.DenseRank, x.Dense), f.WDense, x.Score)
	default:
		s = fmt.Sprintf("%s: %s (weight %.3g, scaled by the list max), %s (weight %.3g, min-max over the list) -> %.5f", f,
			list("bm25", x.BM25Rank, x.BM25), f.Alpha, list("vector", x.DenseRank, x.Dense), 1-f.Alpha, x.Score)
	}
	if x.BM25Rank == 0 && f.Floor != 0 {
		s += fmt.Sprintf("; vector-only, kept: similarity %.4f above the floor", x.Dense)
	}
	return s
}
