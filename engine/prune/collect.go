package prune

// collector keeps the k best scores seen (a min-heap, whose root is the
// threshold once it holds k) and every hit that reached the threshold of
// its time. A hit that ends at or above the final threshold reached it
// when it was offered, since the threshold only rises, so filtering the
// kept hits by the final threshold leaves exactly the top k with ties.
type collector struct {
	k     int
	heap  []float64
	kept  []Hit
	limit int // compact kept when it grows past this
}

// threshold is the k-th best score so far, and whether k were seen.
func (c *collector) threshold() (float64, bool) {
	if len(c.heap) < c.k {
		return 0, false
	}
	return c.heap[0], true
}

func (c *collector) offer(h Hit) {
	switch {
	case len(c.heap) < c.k:
		c.heap = append(c.heap, h.Score)
		c.up(len(c.heap) - 1)
	case h.Score > c.heap[0]:
		c.heap[0] = h.Score
		c.down(0)
	case h.Score < c.heap[0]:
		return
	}
	c.kept = append(c.kept, h)
	if c.limit == 0 {
		c.limit = 2*c.k + 256
	}
	if len(c.kept) > c.limit {
		c.compact()
		c.limit = max(c.limit, 2*len(c.kept))
	}
}

// compact drops the kept hits below the threshold.
func (c *collector) compact() {
	t, full := c.threshold()
	if !full {
		return
	}
	out := c.kept[:0]
	for _, h := range c.kept {
		if h.Score >= t {
			out = append(out, h)
		}
	}
	c.kept = out
}

// result is the top k with ties, and whether fewer than k were offered
// (so that it holds every hit).
func (c *collector) result() ([]Hit, bool) {
	c.compact()
	return c.kept, len(c.heap) < c.k
}

func (c *collector) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if c.heap[p] <= c.heap[i] {
			return
		}
		c.heap[p], c.heap[i] = c.heap[i], c.heap[p]
		i = p
	}
}

func (c *collector) down(i int) {
	n := len(c.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && c.heap[r] < c.heap[l] {
			m = r
		}
		if c.heap[i] <= c.heap[m] {
			return
		}
		c.heap[i], c.heap[m] = c.heap[m], c.heap[i]
		i = m
	}
}
