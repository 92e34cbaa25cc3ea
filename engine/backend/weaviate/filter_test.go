package weaviate

import (
	"slices"
	"strings"
	"testing"
)

// TestSearchWhereFacetsAndLang: a search with Facets or Lang ranks only the
// objects they keep, in every mode, so a match that an unfiltered top k
// would cut is found; Fetch returns both properties (the journal's repair
// copies objects with them).
func TestSearchWhereFacetsAndLang(t *testing.T) {
	c, ctx, s, name := testCollection(t)
	// 300 chunks that all say "zebra" often, above two weak ones that carry
	// the facets: unfiltered, the weak ones rank last.
	objs := corpus(300, 3)
	for i := range objs {
		objs[i] = object(objs[i].ChunkID, "zebra zebra zebra "+objs[i].Text)
		objs[i].Facets, objs[i].Lang = []string{"type=doc"}, "en"
	}
	weak := func(id, lang string, facets ...string) Object {
		o := object(id, "zebra "+strings.Repeat("filler ", 40))
		o.Facets, o.Lang = facets, lang
		return o
	}
	objs = append(objs,
		weak("pdf.pdf#0", "de", "type=pdf", "author=ada"),
		weak("pdf.pdf#1", "en", "type=pdf", "author=ada"),
		weak("other.pdf#0", "de", "type=pdf", "author=bob"),
		weak("bare.md#0", "de")) // no facets at all
	if err := c.Import(ctx, name, objs, s); err != nil {
		t.Fatal(err)
	}
	q := object("q", "zebra")
	cases := []struct {
		facets []string
		lang   string
		want   []string
	}{
		{[]string{"type=pdf"}, "", []string{"other.pdf#0", "pdf.pdf#0", "pdf.pdf#1"}},
		{[]string{"author=ada", "type=pdf"}, "", []string{"pdf.pdf#0", "pdf.pdf#1"}},
		{[]string{"author=ada", "type=pdf"}, "de", []string{"pdf.pdf#0"}},
		{nil, "de", []string{"bare.md#0", "other.pdf#0", "pdf.pdf#0"}},
		{[]string{"type=pdf", "author=nobody"}, "", nil},
		{[]string{"type=doc"}, "de", nil},
	}
	for _, tc := range cases {
		for _, mode := range []Mode{BM25, Vector, Hybrid} {
			hits, err := c.Search(ctx, name, Query{Mode: mode, Tokens: q.Tokens, Vector: q.Vector, Alpha: 0.5, K: 5,
				Facets: tc.facets, Lang: tc.lang}, s)
			if err != nil {
				t.Fatalf("%v %q mode %d: %v", tc.facets, tc.lang, mode, err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.ChunkID)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("facets %v lang %q mode %d: %v, want %v", tc.facets, tc.lang, mode, got, tc.want)
			}
		}
	}
	got, err := c.Fetch(ctx, name, []string{"pdf.pdf#0", "bare.md#0"}, s)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(got, func(a, b Object) int { return strings.Compare(a.ChunkID, b.ChunkID) })
	if len(got) != 2 || len(got[0].Facets) != 0 || got[0].Lang != "de" ||
		!slices.Equal(got[1].Facets, []string{"type=pdf", "author=ada"}) || got[1].Lang != "de" {
		t.Fatalf("fetch: %+v", got)
	}
}
