package vector

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// TestVectorByID: Vector returns the live vector of an ID across
// generations: a replaced ID its new vector, a deleted one nothing, and a
// closed index nothing.
func TestVectorByID(t *testing.T) {
	const dims = 8
	rng := rand.New(rand.NewPCG(7, 7))
	root := t.TempDir()
	g0, g1, g2 := filepath.Join(root, "g0"), filepath.Join(root, "g1"), filepath.Join(root, "g2")
	m := model{}
	for _, id := range []string{"a", "b", "c"} {
		m[id] = randUnit(rng, dims)
	}
	mustBuild(t, g0, "", dims, nil, m.entries([]string{"a", "b", "c"}))
	m["b"], m["d"] = randUnit(rng, dims), randUnit(rng, dims)
	mustBuild(t, g1, g0, dims, []string{"b"}, m.entries([]string{"b", "d"}))
	mustBuild(t, g2, g1, dims, []string{"c"}, nil)
	delete(m, "c")

	ix := mustOpen(t, g2, dims)
	for id, want := range m {
		got, ok := ix.Vector(id)
		if !ok || !slices.Equal(got, want) {
			t.Errorf("Vector(%q) = %v, %v; want %v", id, got, ok, want)
		}
	}
	for _, id := range []string{"c", "x", ""} {
		if v, ok := ix.Vector(id); ok {
			t.Errorf("Vector(%q) = %v, want none", id, v)
		}
	}
	// The copy is the caller's: changing it leaves the index alone.
	v, _ := ix.Vector("a")
	v[0] += 1
	if again, _ := ix.Vector("a"); !slices.Equal(again, m["a"]) {
		t.Errorf("Vector returned the mapped memory")
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if v, ok := ix.Vector("a"); ok {
		t.Errorf("Vector after Close = %v", v)
	}
}
