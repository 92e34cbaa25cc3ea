package chunk

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/codedef"
)

// randomTree makes well-nested definitions over lines lo..hi (1-based,
// inclusive) under parent: siblings in line order that do not overlap,
// each with children of its own, parents before children.
func randomTree(r *rand.Rand, defs []codedef.Def, lo, hi, parent, depth int) []codedef.Def {
	for at := lo; at <= hi && depth < 4; {
		s := at + r.IntN(3)
		e := s + r.IntN(12)
		if e > hi {
			return defs
		}
		i := len(defs)
		name := fmt.Sprintf("d%d", i)
		defs = append(defs, codedef.Def{Name: name, Kind: codedef.KindFunction, StartLine: s, EndLine: e, Parent: parent, Label: "def " + name})
		if r.IntN(2) == 0 {
			defs = randomTree(r, defs, s+1, e, i, depth+1)
		}
		at = e + 1
	}
	return defs
}

// TestSplitDefsProperties: on random documents with random well-nested
// definitions, SplitDefs keeps Split's guarantees, never cuts a
// definition that fits, lists every definition and is deterministic; with
// arbitrary (overlapping, misparented, out of range) definitions it still
// keeps Split's guarantees.
func TestSplitDefsProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		text := randomDoc(r, 80)
		n := strings.Count(text, "\n") + 1
		o := Options{Size: 20 + r.IntN(400), Overlap: r.IntN(60)}
		defs := randomTree(r, nil, 1, n, -1, 0)
		got := SplitDefs(KindCode, "python", text, defs, o)
		checkChunks(t, text, o, got)
		checkDefsKept(t, text, defs, got, o)
		if diff := cmp.Diff(got, SplitDefs(KindCode, "python", text, defs, o)); diff != "" {
			t.Fatalf("SplitDefs is not deterministic:\n%s", diff)
		}
		wild := make([]codedef.Def, r.IntN(20))
		for k := range wild {
			s := r.IntN(n+4) - 2
			wild[k] = codedef.Def{Name: fmt.Sprint("w", k), StartLine: s, EndLine: s + r.IntN(30) - 5, Parent: r.IntN(len(wild)+2) - 2}
		}
		checkChunks(t, text, o, SplitDefs(KindCode, "python", text, wild, o))
	}
}
