package weaviate

import (
	"net/http"
	"testing"
)

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

// TestSchemaIndexesOnlyWhatQueriesUse checks what an import makes the
// servers index per object: a filter index only on the properties a
// search filters by (where: facets, lang), a BM25 index only on the tokens.
// Fetches and deletes select by object id, which Weaviate always indexes.
func TestSchemaIndexesOnlyWhatQueriesUse(t *testing.T) {
	c, ctx, _, name := testCollection(t)
	var out struct {
		Properties []struct {
			Name       string `json:"name"`
			Filterable bool   `json:"indexFilterable"`
			Searchable bool   `json:"indexSearchable"`
			Range      bool   `json:"indexRangeFilters"`
		} `json:"properties"`
	}
	if err := c.do(ctx, "schema", http.MethodGet, "/v1/schema/"+name, nil, &out); err != nil {
		t.Fatal(err)
	}
	filtered := map[string]bool{propFacets: true, propLang: true}
	for _, p := range out.Properties {
		if p.Filterable != filtered[p.Name] || p.Searchable != (p.Name == propTokens) || p.Range {
			t.Errorf("%s: filterable %v searchable %v range %v; want filterable %v searchable %v range false",
				p.Name, p.Filterable, p.Searchable, p.Range, filtered[p.Name], p.Name == propTokens)
		}
	}
	if len(out.Properties) != 7 {
		t.Errorf("%d properties, want 7", len(out.Properties))
	}
}
