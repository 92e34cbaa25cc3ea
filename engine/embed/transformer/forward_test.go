package transformer

import (
	"testing"

	"github.com/autorag/autorag/engine/embed/transformer/internal/qgemm"
)

// TestForwardFirstRows: a last layer computed for its first row alone (the
// [CLS] state, all a CLS-pooled model needs) gives that row bit for bit as
// the whole layer does, with either arithmetic, at lengths with partial
// tiles and past one block of attention rows; so do its first 13 rows.
func TestForwardFirstRows(t *testing.T) {
	for _, int8 := range []bool{false, true} {
		if int8 && !qgemm.Available() {
			continue // float32 only on this CPU: there is no int8 path to test
		}
		m := loadWith(t, "bge-small-en-v1.5-q", 512, PoolCLS, int8)
		h := m.enc.hidden
		for _, n := range []int{2, 13, 40, attnRows + 7} {
			ids := syntheticIDs(n, n)
			var st state
			all := append([]float32(nil), m.enc.forward(&st, ids, n)...)
			for _, rows := range []int{1, min(13, n)} {
				got := m.enc.forward(&st, ids, rows)
				for j := range rows * h {
					if got[j] != all[j] {
						t.Fatalf("int8=%v, %d tokens, %d rows: state[%d] = %g, with every row %g", int8, n, rows, j, got[j], all[j])
					}
				}
			}
		}
	}
}

// TestFFNInRowBlocks: the feed-forward network taken ffnRows rows at a time
// gives the states, bit for bit, that it gives over every row at once,
// with either arithmetic, at lengths below, at and past one block (with a
// partial last one).
func TestFFNInRowBlocks(t *testing.T) {
	saved := ffnRows
	defer func() { ffnRows = saved }()
	for _, int8 := range []bool{false, true} {
		if int8 && !qgemm.Available() {
			continue // float32 only on this CPU: there is no int8 path to test
		}
		m := loadWith(t, "all-minilm-l6-v2-q", 512, PoolMean, int8)
		for _, n := range []int{saved - 1, saved, 2*saved + 5} {
			ids := syntheticIDs(n, n)
			var st state
			ffnRows = 1 << 20
			all := append([]float32(nil), m.enc.forward(&st, ids, n)...)
			ffnRows = saved
			got := m.enc.forward(&st, ids, n)
			for j := range all {
				if got[j] != all[j] {
					t.Fatalf("int8=%v, %d tokens: state[%d] = %g in blocks of %d rows, %g at once", int8, n, j, got[j], saved, all[j])
				}
			}
		}
	}
}
