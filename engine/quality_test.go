package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/embed/static"
)

const passage = `# Rotating keys

Rotate the signing key every ninety days. The old key stays valid for one
day so that sessions signed with it survive the rotation.
`

func query(t *testing.T, e *Engine, o QueryOptions) *QueryResult {
	t.Helper()
	res, err := e.Query(t.Context(), o)
	if err != nil {
		t.Fatalf("query %q: %v", o.Text, err)
	}
	return res
}

// TestCollapseIdenticalPassages: the same passage in three versioned
// folders is one result, shown from the newest version, that says where
// else it is; --no-collapse lists them apart.
func TestCollapseIdenticalPassages(t *testing.T) {
	e := newHybridEngine(t, map[string]string{
		"docs/v1/keys.md":  passage,
		"docs/v2/keys.md":  passage,
		"docs/v3/keys.md":  passage,
		"docs/v3/other.md": "# Sessions\n\nA session lasts one day; the signing key of a session is checked on every request.\n",
	}, nil)
	mustRefresh(t, e)
	res := query(t, e, QueryOptions{Text: "rotate signing key", K: 5})
	if got := paths(res); !slices.Equal(got, []string{"docs/v3/keys.md", "docs/v3/other.md"}) {
		t.Fatalf("collapsed results %v, want the passage once and the other file", got)
	}
	var also []string
	for _, l := range res.Results[0].AlsoIn {
		also = append(also, fmt.Sprintf("%s:%d-%d", l.Path, l.Lines[0], l.Lines[1]))
	}
	if want := []string{"docs/v1/keys.md:1-4", "docs/v2/keys.md:1-4"}; !slices.Equal(also, want) {
		t.Errorf("also_in %v, want %v", also, want)
	}
	if res.Results[1].Rank != 2 || len(res.Results[1].AlsoIn) != 0 {
		t.Errorf("second result rank %d also_in %v", res.Results[1].Rank, res.Results[1].AlsoIn)
	}
	all := query(t, e, QueryOptions{Text: "rotate signing key", K: 5, NoCollapse: true})
	if got := paths(all); len(got) != 4 || len(all.Results[0].AlsoIn) != 0 {
		t.Errorf("--no-collapse results %v (also_in %v), want all four files apart", got, all.Results[0].AlsoIn)
	}
}

// TestCollapseStillFillsK: in bm25 mode the list is cut to what k files
// need; when copies use it up, the engine scores deeper and still returns
// k distinct passages.
func TestCollapseStillFillsK(t *testing.T) {
	files := map[string]string{}
	for i := range 12 {
		files[fmt.Sprintf("v%02d/keys.md", i)] = passage
	}
	for i := range 3 {
		files[fmt.Sprintf("notes/n%d.md", i)] = fmt.Sprintf("# Note %d\n\nThe signing key note number %d.\n", i, i)
	}
	e := newHybridEngine(t, files, nil)
	mustRefresh(t, e)
	res := query(t, e, QueryOptions{Text: "rotate signing key", K: 3, Mode: ModeBM25})
	if len(res.Results) != 3 {
		t.Fatalf("got %d results %v, want 3", len(res.Results), paths(res))
	}
	if n := len(res.Results[0].AlsoIn); n != 11 {
		t.Errorf("first result also in %d files, want 11", n)
	}
}

// TestGermanQueryFindsInflectedForms: a German chunk is stemmed as
// German, so a query's plural finds the singular, and the English chunks
// of the same index keep the English analysis.
func TestGermanQueryFindsInflectedForms(t *testing.T) {
	files := map[string]string{
		"de/haus.md":   "# Das Haus\n\nDas alte Haus am Markt wurde im Jahr 1900 gebaut und ist seitdem das Rathaus der Stadt.\n",
		"de/brot.md":   "# Brot\n\nDas Brot wird jeden Morgen in der Bäckerei gebacken und ist bis zum Abend frisch.\n",
		"en/houses.md": "# Houses\n\nThe houses on the market square were built in 1900 and are the town's oldest buildings.\n",
	}
	e := newHybridEngine(t, files, nil)
	mustRefresh(t, e)
	if got := paths(query(t, e, QueryOptions{Text: "Wann wurden die Häuser gebaut?", Mode: ModeBM25})); len(got) == 0 || got[0] != "de/haus.md" {
		t.Errorf("German query: results %v, want de/haus.md first", got)
	}
	if got := paths(query(t, e, QueryOptions{Text: "when was the house built", Mode: ModeBM25})); len(got) == 0 || got[0] != "en/houses.md" {
		t.Errorf("English query: results %v, want en/houses.md first", got)
	}
	// English-only analysis does not stem the German plural.
	s := DefaultSettings()
	s.Analyzer = AnalyzerEnglish
	en, err := New(e.Layout.Root, s)
	if err != nil {
		t.Fatal(err)
	}
	if r := mustRefresh(t, en); r.Outcome != OutcomeRebuilt {
		t.Errorf("changing the analyzer: refresh %s, want %s (the analyzer is fingerprinted)", r.Outcome, OutcomeRebuilt)
	}
	if got := paths(query(t, en, QueryOptions{Text: "Häuser", Mode: ModeBM25})); len(got) != 0 {
		t.Errorf("English analysis: 'Häuser' found %v, want nothing", got)
	}
	if got := paths(query(t, e, QueryOptions{Text: "Häuser", Mode: ModeBM25})); len(got) != 0 {
		t.Errorf("the auto engine queried an english index: %v", got)
	}
}

// TestNonsenseGetsNothing: a query whose words match nothing returns no
// results in hybrid mode with the built-in embedder, and --explain says
// that the floor dropped the vector-only hits.
func TestNonsenseGetsNothing(t *testing.T) {
	s := DefaultSettings()
	s.Embedder = static.New()
	root := t.TempDir()
	writeSource(t, root, "keys.md", passage)
	writeSource(t, root, "cache.md", "# Cache\n\nThe cache evicts the least recently used entry when it is full.\n")
	e, err := New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	mustRefresh(t, e)
	res := query(t, e, QueryOptions{Text: "qwxz vbnm plugh", Mode: ModeHybrid, Explain: true})
	if len(res.Results) != 0 {
		t.Errorf("nonsense query: %v, want no results", paths(res))
	}
	if res.Dropped != 2 || !strings.Contains(res.Explain, "2 vector-only results dropped") {
		t.Errorf("dropped %d, explain %q", res.Dropped, res.Explain)
	}
	// A real query still gets its answer, and vector mode is unfiltered.
	if got := paths(query(t, e, QueryOptions{Text: "least recently used", Mode: ModeHybrid})); len(got) == 0 || got[0] != "cache.md" {
		t.Errorf("real query: %v", got)
	}
	if got := paths(query(t, e, QueryOptions{Text: "qwxz vbnm plugh", Mode: ModeVector})); len(got) != 2 {
		t.Errorf("vector mode: %v, want both files", got)
	}
}

// TestEnglishQueryOnTranslatedTree: in a tree of translations, an English
// question's function words must not become terms of the other languages'
// chunks (which quote English anchors such as {#what-is-a-span}): each
// chunk scores "what is a span" exactly as it scores "span".
func TestEnglishQueryOnTranslatedTree(t *testing.T) {
	files := map[string]string{
		"en/spans.md": "# Spans\n\nA span represents a unit of work or operation. Spans are the building blocks of traces.\n",
		"ro/spans.md": "# Ce este un span? {#what-is-a-span}\n\nUn span reprezintă o unitate de lucru sau o operație și este elementul de bază al urmelor din sistem.\n",
		"es/spans.md": "# ¿Qué es un span? {#what-is-a-span}\n\nUn span representa una unidad de trabajo u operación y es el componente básico de las trazas del sistema.\n",
	}
	e := newHybridEngine(t, files, nil)
	mustRefresh(t, e)
	score := func(q string) map[string]float64 {
		out := map[string]float64{}
		for _, r := range query(t, e, QueryOptions{Text: q, Mode: ModeBM25, NoCollapse: true}).Results {
			out[r.Path] = r.Score
		}
		return out
	}
	full, bare := score("what is a span"), score("span")
	if len(full) != 3 || !maps.Equal(full, bare) {
		t.Errorf("scores of \"what is a span\" %v, of \"span\" %v: want the same three", full, bare)
	}
	// The translations are copies of one page: a Spanish question shows the
	// Spanish one, with the others as also_in.
	res := query(t, e, QueryOptions{Text: "¿qué representa un span en las trazas?", Mode: ModeBM25})
	if got := paths(res); len(got) == 0 || got[0] != "es/spans.md" || len(res.Results[0].AlsoIn) != 2 {
		t.Errorf("Spanish question: %v, want es/spans.md first with the two translations as also_in", got)
	}
}
