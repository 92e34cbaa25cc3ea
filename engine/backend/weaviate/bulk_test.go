package weaviate

import "testing"

// TestBuildPicksVectorIndexBySize checks what a first refresh's import
// costs the cluster: a pair built with up to flatMax chunks gets flat
// collections (no graph inserts), and an explicit setting wins.
func TestBuildPicksVectorIndexBySize(t *testing.T) {
	c := testCluster(t)
	ctx := testContext(t)
	for _, tc := range []struct{ set, want string }{{"", "flat"}, {"hnsw", "hnsw"}} {
		s := testSettings(t, c)
		s.VectorIndex = tc.set
		p := NewPair(c, testAlias(t, c), s)
		rep, err := p.Build(ctx, "e1", corpus(50, 7))
		if err != nil {
			t.Fatal(err)
		}
		other, _ := partner(rep.Active)
		for _, name := range []string{rep.Active, other} {
			got, err := c.DescribeCollection(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			if got.VectorIndex != tc.want {
				t.Errorf("VectorIndex %q: %s has a %q vector index, want %q", tc.set, name, got.VectorIndex, tc.want)
			}
		}
	}
}
