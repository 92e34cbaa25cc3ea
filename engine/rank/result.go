package rank

// Query modes.
const (
	ModeBM25   = "bm25"
	ModeVector = "vector"
	ModeHybrid = "hybrid"
)

// Scores say what each list thought of a result: its score and 1-based
// rank there, or null when the result was not in that list.
type Scores struct {
	BM25       *float64 `json:"bm25"`
	BM25Rank   *int     `json:"bm25_rank"`
	Vector     *float64 `json:"vector"`
	VectorRank *int     `json:"vector_rank"`
	// Rerank is the reranker's score, when one re-scored the result.
	Rerank *float64 `json:"rerank,omitempty"`
}

// Result is one passage.
type Result struct {
	Rank    int    `json:"rank"`
	Path    string `json:"path"`
	Chunk   int    `json:"chunk"`
	Lines   [2]int `json:"lines"`
	Section string `json:"section"`
	Title   string `json:"title"`
	Page    int    `json:"page,omitempty"` // PDF page, 1-based
	// Attachment names the e-mail attachment of Path the passage is from
	// ("report.pdf"; Page is then the attachment's page): each attachment
	// is an entry of its own, for the per-file limit too.
	Attachment string  `json:"attachment,omitempty"`
	Score      float64 `json:"score"`
	Scores     Scores  `json:"scores"`
	Explain    string  `json:"explain,omitempty"`
	// Meta are the metadata fields the query filtered on, with this
	// result's values (--filter from=... shows the From it matched).
	Meta map[string]string `json:"meta,omitempty"`
	// Defs are the definitions the passage holds (classes, functions,
	// methods, types, constants), in line order: the ranking matches a
	// query's identifiers against their names (DefKey).
	Defs []Def  `json:"defs,omitempty"`
	Text string `json:"text"`
	// AlsoIn lists the other places the same passage (the same chunk text
	// but for white space and version numbers) was found, best-ranked
	// first; they are not results of their own.
	AlsoIn []Location `json:"also_in,omitempty"`
}

// Rank turns the lists into one ranking for the mode; in hybrid mode it
// also returns how many vector-only chunks fell below the floor. q is the
// query (adaptive fusion's dense weights).
func Rank(mode string, f Fusion, q Query, floor float64, bm, de []Hit) ([]Fused, int) {
	switch mode {
	case ModeBM25:
		return single(bm, true), 0
	case ModeVector:
		return single(de, false), 0
	}
	return DropBelowFloor(floor, Fuse(f, q, bm, de))
}

func single(l []Hit, isBM25 bool) []Fused {
	out := make([]Fused, len(l))
	for i, h := range l {
		out[i] = Fused{ID: h.ID, Score: h.Score}
		if isBM25 {
			out[i].BM25, out[i].BM25Rank = h.Score, i+1
		} else {
			out[i].Dense, out[i].DenseRank = h.Score, i+1
		}
	}
	return out
}
