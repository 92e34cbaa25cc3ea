package levenshtein

import (
	"reflect"
	"testing"
)

// TestBuilderIsLazy covers the autorag patch: construction does no work,
// and the first BuildDfa yields the same automaton an eager build does.
func TestBuilderIsLazy(t *testing.T) {
	for _, d := range []uint8{1, 2} {
		lab, err := NewLevenshteinAutomatonBuilder(d, true)
		if err != nil {
			t.Fatal(err)
		}
		if lab.pDfa != nil {
			t.Fatalf("d=%d: parametric DFA built at construction", d)
		}
		if lab.MaxDistance() != d {
			t.Fatalf("MaxDistance = %d, want %d", lab.MaxDistance(), d)
		}
		got, err := lab.BuildDfa("autorag", d)
		if err != nil {
			t.Fatal(err)
		}
		eager, err := fromNfa(newLevenshtein(d, true))
		if err != nil {
			t.Fatal(err)
		}
		want, err := eager.buildDfa("autorag", d, false)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("d=%d: lazy and eager automata differ", d)
		}
	}
}
