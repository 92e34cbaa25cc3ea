package transformer

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"sync"
)

// Run embeds sequences of token ids (special tokens included, at most
// MaxLen each) with one worker per core, longest sequences first so the
// workers finish together; a lone sequence (a query) has its products
// shared among the cores instead. Each sequence runs at its own length: there is
// no padding, so no work is spent on it and a vector never depends on the
// other sequences of the call. done, when not nil, is called after each
// sequence (from any worker). Run stops early when ctx is cancelled.
func (m *Model) Run(ctx context.Context, seqs [][]int32, done func()) ([][]float32, error) {
	for i, s := range seqs {
		if len(s) == 0 || len(s) > m.MaxLen() {
			return nil, fmt.Errorf("sequence %d has %d tokens (1 to %d)", i, len(s), m.MaxLen())
		}
		for _, id := range s {
			if id < 0 || int(id) >= m.enc.vocab {
				return nil, fmt.Errorf("sequence %d: token id %d outside the vocabulary of %d", i, id, m.enc.vocab)
			}
		}
	}
	order := make([]int, len(seqs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(seqs[order[a]]) > len(seqs[order[b]]) })
	out := make([][]float32, len(seqs))
	flat := make([]float32, len(seqs)*m.Dims())
	next := make(chan int)
	var wg sync.WaitGroup
	cores := runtime.GOMAXPROCS(0)
	for w := 0; w < min(cores, len(seqs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var st state
			if len(seqs) == 1 {
				st.workers = cores // one sequence: its products use every core
			}
			for i := range next {
				v := flat[i*m.Dims() : (i+1)*m.Dims()]
				m.vector(&st, seqs[i], v)
				out[i] = v
				if done != nil {
					done()
				}
			}
		}()
	}
	var err error
feed:
	for _, i := range order {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	return out, nil
}
