package main

import (
	"container/heap"
	"context"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/eval"
)

// denseRuns ranks the corpus by exact cosine between e's vectors of each
// query and of title + "\n" + text: the top k document ids per query.
func denseRuns(ctx context.Context, e embed.Embedder, ds *eval.Dataset, k int) (map[string][]string, error) {
	texts := make([]string, len(ds.Docs))
	for i, d := range ds.Docs {
		texts[i] = d.Title + "\n" + d.Text
	}
	dv, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	qtexts := make([]string, len(ds.Queries))
	for i, q := range ds.Queries {
		qtexts[i] = q.Text
	}
	qv, err := e.Embed(ctx, qtexts)
	if err != nil {
		return nil, err
	}
	runs := make(map[string][]string, len(ds.Queries))
	for i, q := range ds.Queries {
		top := topK(qv[i], dv, k)
		ids := make([]string, len(top))
		for j, t := range top {
			ids[j] = ds.Docs[t].ID
		}
		runs[q.ID] = ids
	}
	return runs, nil
}

// topK returns the indices of the k vectors with the highest dot product
// with q, best first; ties go to the lower index.
func topK(q []float32, vs [][]float32, k int) []int {
	h := &hitHeap{}
	for i, v := range vs {
		var s float32
		for d, x := range q {
			s += x * v[d]
		}
		if h.Len() < k {
			heap.Push(h, hit{i, s})
		} else if s > (*h)[0].score {
			(*h)[0] = hit{i, s}
			heap.Fix(h, 0)
		}
	}
	out := make([]int, h.Len())
	for j := len(out) - 1; j >= 0; j-- {
		out[j] = heap.Pop(h).(hit).doc
	}
	return out
}

type hit struct {
	doc   int
	score float32
}

// hitHeap is a min-heap: the worst kept hit (lowest score, then highest
// index) on top.
type hitHeap []hit

func (h hitHeap) Len() int { return len(h) }
func (h hitHeap) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].doc > h[j].doc
}
func (h hitHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)   { *h = append(*h, x.(hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
