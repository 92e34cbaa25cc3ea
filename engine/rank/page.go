package rank

import (
	"fmt"
	"slices"

	"github.com/autorag/autorag/engine/copies"
	"github.com/autorag/autorag/engine/record"
)

// Location is where else a collapsed result's passage appears.
type Location struct {
	Path       string `json:"path"`
	Attachment string `json:"attachment,omitempty"`
	Lines      [2]int `json:"lines"`
	Page       int    `json:"page,omitempty"` // PDF page, 1-based
}

// locationOf is where r is.
func locationOf(r Result) Location {
	return Location{Path: r.Path, Attachment: r.Attachment, Lines: r.Lines, Page: r.Page}
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
	// Copies, when set and Collapse is on, gives the signature of the
	// document at a path (package copies): a result from a copy of an
	// earlier result's document (the same page in another version's
	// folder) joins that result's AlsoIn, and the copy shown in its place
	// is the one copies.Prefer picks given Named (the query's words and
	// the --path patterns).
	Copies func(path string) copies.Signature
	Named  []string
}

// Walk walks the ranking, applies the per-file limit, collapses
// results whose chunk text is the same but for white space and version
// numbers (collapseKey) into the best-ranked one (unless
// collapse is off: the others go into its AlsoIn, and do not count against
// their file's limit) and loads the stored fields of the results it keeps
// with load. It also returns how many results it collapsed.
func (p Page) Walk(ranking []Fused, load func(id, path string, ord int) (Result, error)) ([]Result, int, error) {
	seen := map[string]int{}
	found := map[string]int{} // when each entry was first loaded: AlsoIn's order
	var twins collapser       // results by collapseKey
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
		if _, ok := found[key]; !ok {
			found[key] = len(found)
		}
		res.Score, res.Scores = x.Score, x.scores()
		if p.Explain {
			res.Explain = x.explain(p.Mode, p.Fusion, p.Query)
		}
		if p.Collapse {
			i := twins.find(res.Text, out)
			if i < 0 {
				i = p.copyOf(res, out)
			}
			if i >= 0 {
				if out[i] = p.join(out[i], res); out[i].Path == res.Path {
					seen[key]++ // shown now: its file's limit counts it
				}
				slices.SortStableFunc(out[i].AlsoIn, func(a, b Location) int {
					return found[record.EntryKey(a.Path, a.Attachment)] - found[record.EntryKey(b.Path, b.Attachment)]
				})
				collapsed++
				continue
			}
			twins.add(len(out))
		}
		seen[key]++
		res.Rank = len(out) + 1
		out = append(out, res)
	}
	return out, collapsed, nil
}

// copyOf is the index of the result in out whose document res's is a
// copy of, or -1. Attachments are entries of their own and never copies.
func (p Page) copyOf(res Result, out []Result) int {
	if p.Copies == nil || res.Attachment != "" {
		return -1
	}
	var sig copies.Signature // read only once a sibling asks: most results have none
	for i, o := range out {
		if o.Attachment != "" {
			continue
		}
		if _, _, sib := copies.Siblings(o.Path, res.Path); !sib {
			continue // never a copy (IsCopy), whatever the texts
		}
		if sig == nil {
			if sig = p.Copies(res.Path); sig == nil {
				return -1 // no mirror: never a copy
			}
		}
		if copies.IsCopy(copies.Item{Path: o.Path, Sig: p.Copies(o.Path)}, copies.Item{Path: res.Path, Sig: sig}) {
			return i
		}
	}
	return -1
}

// join adds the copy res to shown, the result at its place: res takes the
// place (rank and score kept, shown first in its AlsoIn) when it is the
// copy to prefer.
func (p Page) join(shown, res Result) Result {
	for _, l := range shown.AlsoIn {
		if l.Path == res.Path && l.Attachment == "" {
			return shown // another passage of a copy already listed
		}
	}
	if !copies.Prefer(shown.Path, res.Path, p.Named) {
		shown.AlsoIn = append(shown.AlsoIn, locationOf(res))
		return shown
	}
	res.Rank, res.Score = shown.Rank, shown.Score
	res.AlsoIn = append(append([]Location{locationOf(shown)}, shown.AlsoIn...), res.AlsoIn...)
	return res
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
		return "bm25: " + list("bm25", x.BM25Rank, x.BM25) + x.explainCode()
	case ModeVector:
		return "vector: " + list("vector", x.DenseRank, x.Dense) + x.explainCode()
	}
	base := x // the fused score, before the code signals
	if x.Code != nil {
		base.Score = x.Code.Base
	}
	var s string
	switch f.Method {
	case FusionAdaptive:
		s = base.explainAdaptive(f, q, list)
	case FusionRRF:
		s = fmt.Sprintf("%s (weight %.3g), %s (weight %.3g) -> %.5f", list("bm25", x.BM25Rank, x.BM25), f.WBM25,
			list("vector", x.DenseRank, x.Dense), f.WDense, base.Score)
	default:
		s = fmt.Sprintf("%s (weight %.3g, scaled by the list max), %s (weight %.3g, min-max over the list) -> %.5f",
			list("bm25", x.BM25Rank, x.BM25), f.Alpha, list("vector", x.DenseRank, x.Dense), 1-f.Alpha, base.Score)
	}
	if x.BM25Rank == 0 && f.Floor != 0 {
		s += fmt.Sprintf("; vector-only, kept: similarity %.4f above the floor", x.Dense)
	}
	return s + x.explainCode()
}

// explainCode is what the code signals did, if they ran.
func (x Fused) explainCode() string {
	if x.Code == nil {
		return ""
	}
	return x.Code.explain(x.Score)
}
