package local

import (
	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"
)

// termFrequencies is termFrequencies(tokens) for the stream the Scratch
// last returned, counted by stem id when every token has one (English
// prose): the counts are an array, not a map looked up a token, and the
// map and its entries are made for the distinct terms only. The map's
// keys are the cache's strings. A stream with a token without an id (a
// term the analysis did not stem from its cache) is counted by
// termFrequencies(tokens): such a term could equal a cached one.
func (s *bodyScratch) termFrequencies(tokens analysis.TokenStream) index.TokenFrequencies {
	ids := s.StemIDs()
	if len(ids) != len(tokens) || len(tokens) == 0 {
		return termFrequencies(tokens)
	}
	if n := s.NumStems(); len(s.counts) < n {
		s.counts = make([]int32, n+n/4)
	}
	for _, id := range ids {
		if id < 0 {
			return termFrequencies(tokens)
		}
	}
	distinct := 0
	for _, id := range ids {
		if s.counts[id] == 0 {
			distinct++
		}
		s.counts[id]++
	}
	m := make(index.TokenFrequencies, distinct)
	slab := make([]index.TokenFreq, distinct)
	for i, id := range ids {
		n := s.counts[id]
		if n == 0 { // a term already entered
			continue
		}
		tf := &slab[0]
		slab = slab[1:]
		tf.Term = tokens[i].Term
		tf.SetFrequency(int(n))
		m[s.Stem(id)] = tf
		s.counts[id] = 0
	}
	return m
}
