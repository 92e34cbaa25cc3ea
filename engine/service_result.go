package engine

// cloneResult copies r deeply enough that no caller can reach the cached
// value: the result slice and the score pointers (two backing arrays).
func cloneResult(r *QueryResult) *QueryResult {
	out := *r
	out.Results = make([]Result, len(r.Results))
	copy(out.Results, r.Results)
	floats := make([]float64, 0, 2*len(r.Results))
	ints := make([]int, 0, 2*len(r.Results))
	for i := range out.Results {
		// at most two of each per result: the appends never reallocate
		sc := &out.Results[i].Scores
		for _, p := range []**float64{&sc.BM25, &sc.Vector} {
			if *p != nil {
				floats = append(floats, **p)
				*p = &floats[len(floats)-1]
			}
		}
		for _, p := range []**int{&sc.BM25Rank, &sc.VectorRank} {
			if *p != nil {
				ints = append(ints, **p)
				*p = &ints[len(ints)-1]
			}
		}
	}
	return &out
}

// resultSize estimates the memory a cached result holds.
func resultSize(r *QueryResult) int64 {
	n := int64(256 + len(r.Fingerprint) + len(r.Generation) + len(r.Mode) + len(r.Fusion))
	for _, x := range r.Results {
		n += int64(200 + len(x.Path) + len(x.Section) + len(x.Title) + len(x.Explain) + len(x.Text))
	}
	return n
}
