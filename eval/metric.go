package eval

import (
	"math"
	"sort"
)

// NDCG is nDCG@k as trec_eval's ndcg_cut computes it: linear gain, discount
// log2(rank+1), the ideal ranking made of every judged document of
// positive grade; 0 when the query has none.
func NDCG(judged map[string]int, ranked []string, k int) float64 {
	var dcg float64
	for i, id := range ranked[:min(k, len(ranked))] {
		if g := judged[id]; g > 0 {
			dcg += float64(g) / math.Log2(float64(i+2))
		}
	}
	var grades []int
	for _, g := range judged {
		if g > 0 {
			grades = append(grades, g)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(grades)))
	var idcg float64
	for i, g := range grades[:min(k, len(grades))] {
		idcg += float64(g) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// Recall is recall@k: positive documents in the top k over all positive
// documents; 0 when the query has none.
func Recall(judged map[string]int, ranked []string, k int) float64 {
	pos := 0
	for _, g := range judged {
		if g > 0 {
			pos++
		}
	}
	if pos == 0 {
		return 0
	}
	found := 0
	for _, id := range ranked[:min(k, len(ranked))] {
		if judged[id] > 0 {
			found++
		}
	}
	return float64(found) / float64(pos)
}

// MRR is the reciprocal rank of the first positive document in the top k;
// 0 when there is none.
func MRR(judged map[string]int, ranked []string, k int) float64 {
	for i, id := range ranked[:min(k, len(ranked))] {
		if judged[id] > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// Scores are the means over every judged query.
type Scores struct {
	NDCG10    float64 `json:"ndcg@10"`
	Recall100 float64 `json:"recall@100"`
	MRR10     float64 `json:"mrr@10"`
}

// Score averages the metrics over every judged query; a query without a run
// scores 0.
func Score(qrels Qrels, runs map[string][]string) Scores {
	var s Scores
	if len(qrels) == 0 {
		return s
	}
	for q, judged := range qrels {
		s.NDCG10 += NDCG(judged, runs[q], 10)
		s.Recall100 += Recall(judged, runs[q], 100)
		s.MRR10 += MRR(judged, runs[q], 10)
	}
	n := float64(len(qrels))
	s.NDCG10, s.Recall100, s.MRR10 = s.NDCG10/n, s.Recall100/n, s.MRR10/n
	return s
}
