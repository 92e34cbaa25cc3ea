package rank

import "testing"

func TestPathWeight(t *testing.T) {
	for _, c := range []struct {
		w    float64
		mode string
		want float64
		name string
	}{
		{0, ModeBM25, PathWeightBM25, "auto"},
		{0, ModeHybrid, 0, "auto"},
		{0, ModeVector, 0, "auto"},
		{PathWeightOff, ModeBM25, 0, "0"},
		{0.5, ModeHybrid, 0.5, "0.5"},
		{2, ModeBM25, 2, "2"},
	} {
		if got := PathWeight(c.w, c.mode); got != c.want {
			t.Errorf("PathWeight(%g, %s) = %g, want %g", c.w, c.mode, got, c.want)
		}
		if got := PathWeightName(c.w); got != c.name {
			t.Errorf("PathWeightName(%g) = %q, want %q", c.w, got, c.name)
		}
	}
}
