package main

import (
	"math"
	"sort"
)

// ndcg is nDCG@k as trec_eval's ndcg_cut (and BEIR, through pytrec_eval)
// define it: linear gain (the grade), discount log2(rank+1), the ideal
// ranking made of every judged document of positive grade; 0 when the query
// has none.
func ndcg(judged map[string]int, ranked []string, k int) float64 {
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

// meanNDCG averages over every judged query; a query with no run scores 0.
func meanNDCG(qrels map[string]map[string]int, runs map[string][]string, k int) float64 {
	if len(qrels) == 0 {
		return 0
	}
	var sum float64
	for q, judged := range qrels {
		sum += ndcg(judged, runs[q], k)
	}
	return sum / float64(len(qrels))
}
