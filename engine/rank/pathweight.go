package rank

import "strconv"

// PathWeightBM25 is the path field's weight in bm25 mode when the setting
// is 0 (auto); the other modes then use none. On the code-search dev set
// the path field (the words of a chunk's path, a BM25 field) lifted bm25
// mode (0.8604 -> 0.8691 NDCG@10 at weight 1) and no weight lifted hybrid
// mode, whose code signals already weigh the file names of the candidates
// (docs/QUALITY.md: the path field).
const PathWeightBM25 = 1.0

// PathWeightOff is the setting that leaves the path field out in every
// mode.
const PathWeightOff = -1.0

// PathWeight is the path field's weight in a query of mode, given the
// setting w: 0 is auto (PathWeightBM25 in bm25 mode, else 0), a negative
// w is off, a positive one is the weight.
func PathWeight(w float64, mode string) float64 {
	switch {
	case w > 0:
		return w
	case w == 0 && mode == ModeBM25:
		return PathWeightBM25
	}
	return 0
}

// PathWeightName names setting w: auto, 0 (off) or the weight.
func PathWeightName(w float64) string {
	switch {
	case w == 0:
		return "auto"
	case w < 0:
		return "0"
	}
	return strconv.FormatFloat(w, 'g', -1, 64)
}
