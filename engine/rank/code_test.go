package rank

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/record"
)

func TestQueryKind(t *testing.T) {
	cases := map[string]Kind{
		"TypeAdapter":                           KindIdentifier,
		"Monad":                                 KindIdentifier,
		"def get_openapi":                       KindIdentifier,
		"type Node struct":                      KindIdentifier,
		"Router.add":                            KindIdentifier,
		"internal/data/node.go":                 KindPath,
		"router.ts":                             KindPath,
		"ValueError: invalid literal for int()": KindError,
		"panic: runtime error: index out of range": KindError,
		"how a tRPC router is created":             KindNatural,
		"update and delete statement builders":     KindNatural,
		"wie wird der Router erstellt":             KindNatural,
		"":                                         KindNatural,
	}
	for q, want := range cases {
		if got := QueryKind(q); got != want {
			t.Errorf("QueryKind(%q) = %s, want %s", q, got, want)
		}
	}
}

func TestWordsAndIdentifiers(t *testing.T) {
	words := map[string][]string{
		"UpdateStatement":   {"update", "statement"},
		"HTTPServer_config": {"http", "server", "config"},
		"utf8Decode":        {"utf", "8", "decode"},
		"json_pointer.hpp":  {"json", "pointer", "hpp"},
	}
	for in, want := range words {
		if got := Words(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Identifiers("how EitherT combines the Either monad", KindNatural); !reflect.DeepEqual(got, []string{"EitherT"}) {
		t.Errorf("natural-language identifiers %q", got)
	}
	if got := Identifiers("def Router.include_router()", KindIdentifier); !reflect.DeepEqual(got, []string{"include_router"}) {
		t.Errorf("declaration identifiers %q", got)
	}
	// A path names a file: its stem may name a definition, its extension
	// does not.
	paths := map[string][]string{
		"binding/json.go":      {"json"},
		"TypeAdapter.java":     {"TypeAdapter"},
		"src/server/router.ts": {"router"},
		"lib/colors.bash":      {"colors"},
		"Router.add":           {"add"},
	}
	for in, want := range paths {
		if got := Identifiers(in, QueryKind(in)); !reflect.DeepEqual(got, want) {
			t.Errorf("Identifiers(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSectionDefs(t *testing.T) {
	cases := map[string]string{
		"func (s *Store) Get":                                  "Get",
		"class Store > def get":                                "get",
		"type Node":                                            "Node",
		"defmodule Phoenix.Router do":                          "Router",
		"trait Functor[F[_]] extends Invariant[F]":             "Functor",
		"template<typename T> class basic_json":                "basic_json",
		"fun <T> Flow<T>.collect(collector: FlowCollector<T>)": "collect",
		"public interface Job : CoroutineContext.Element":      "Job",
		"static int uv__backend_timeout":                       "uv__backend_timeout",
		"void *uv_malloc(size_t size)":                         "uv_malloc",
		"function M:add(root_dir, single_file)":                "add",
		"local function check_lspdocs(buf_clients)":            "check_lspdocs",
		"* we enter epoll_pwait":                               "",
		"":                                                     "",
	}
	for sec, want := range cases {
		got := SectionDefs(sec)
		if want == "" && got != nil || want != "" && !reflect.DeepEqual(got, []string{want}) {
			t.Errorf("SectionDefs(%q) = %q, want %q", sec, got, want)
		}
	}
	if DefinitionMatch([]string{"Node"}, []string{"Node"}) != 1 || DefinitionMatch([]string{"Node"}, []string{"node"}) != DefCaseless ||
		DefinitionMatch([]string{"Node"}, []string{"Nodes"}) != 0 {
		t.Error("DefinitionMatch")
	}
}

func TestPathMatch(t *testing.T) {
	stem := func(w string) string {
		if w == "and" || w == "how" || w == "a" || w == "is" {
			return ""
		}
		return strings.TrimSuffix(w, "s")
	}
	q := NewPathQuery("update and delete statement builders", stem)
	for _, c := range []struct {
		path      string
		stem, dir float64
	}{
		{"exposed/sql/UpdateStatement.kt", 1, 0},
		{"exposed/sql/StatementBuilder.kt", 1, 0},
		{"exposed/sql/Query.kt", 0, 0},
		{"statements/update/Query.kt", 0, 0.5},
	} {
		s, d := PathMatch(q, c.path, stem)
		if s != c.stem || d != c.dir {
			t.Errorf("PathMatch(%s) = %g, %g; want %g, %g", c.path, s, d, c.stem, c.dir)
		}
	}
	for query, paths := range map[string]map[string]float64{
		"file system operations":          {"unix/fs.c": AbbrevCredit, "unix/fsevents.c": 0},
		"WebSocket client implementation": {"client_ws.py": (1 + AbbrevCredit) / 2, "client.py": 1, "wsgi.py": 0},
		"generating model cards":          {"modelcards/modelcards.py": AbbrevCredit, "cards.py": 1},
		"iterator implementation":         {"iter_impl.hpp": AbbrevCredit, "it.hpp": 0},
	} {
		q := NewPathQuery(query, stem)
		for p, want := range paths {
			if s, _ := PathMatch(q, p, stem); math.Abs(s-want) > 1e-9 {
				t.Errorf("PathMatch(%q, %s) = %g, want %g", query, p, s, want)
			}
		}
	}
}

// codeQuery is a Query on a corpus where every .go and .py file is code.
func codeQuery(text string) Query {
	return Query{Text: text, IsCode: func(id string) bool {
		return strings.Contains(id, ".go") || strings.Contains(id, ".py")
	}}
}

func TestCodeRerank(t *testing.T) {
	ranking := []Fused{
		{ID: cid("tests/test_store.py", 0), Score: 1.0},
		{ID: cid("docs/store.md", 0), Score: 0.95},
		{ID: cid("store/get.py", 3), Score: 0.9},
		{ID: cid("store/cache.py", 1), Score: 0.8},
	}
	defs := map[string][]string{cid("store/cache.py", 1): {"TypeAdapter"}}
	got := CodeRerank(ranking, codeQuery("TypeAdapter"), func(id string) []string { return defs[id] })
	if got[0].ID != cid("store/cache.py", 1) {
		t.Errorf("the defining chunk is not first: %v", ids(got))
	}
	if last := got[len(got)-1].ID; last != cid("docs/store.md", 0) {
		t.Errorf("the docs page is not last: %v", ids(got))
	}
	ex := got[0].explain(ModeBM25, Fusion{}, Query{})
	if !strings.Contains(ex, "defines the queried identifier") || !strings.Contains(ex, "identifier query") {
		t.Errorf("explain %q", ex)
	}
	// A test query keeps its tests: the test file stays above cache.py,
	// where the identifier query demoted it below.
	got = CodeRerank(ranking, codeQuery("tests for get"), func(string) []string { return nil })
	if at(got, "tests/test_store.py") > at(got, "store/cache.py") || got[at(got, "tests/test_store.py")].Code.RoleFactor != 1 {
		t.Errorf("asked for tests: %v", ids(got))
	}
}

func TestCodeRerankLeavesProse(t *testing.T) {
	ranking := []Fused{{ID: cid("notes/tests.md", 0), Score: 1}, {ID: cid("a.md", 0), Score: 0.5}, {ID: cid("b.md", 0), Score: 0.4}}
	got := CodeRerank(ranking, codeQuery("a"), func(string) []string { t.Fatal("defs asked of prose"); return nil })
	if !reflect.DeepEqual(got, ranking) {
		t.Errorf("prose ranking changed: %v", ids(got))
	}
}

func TestFileEvidence(t *testing.T) {
	ranking := []Fused{{ID: cid("a.go", 0), Score: 1}, {ID: cid("b.go", 0), Score: 0.99}, {ID: cid("b.go", 1), Score: 0.9}, {ID: cid("b.go", 2), Score: 0.8}}
	got := CodeRerank(ranking, codeQuery("some natural words here"), func(string) []string { return nil })
	// b's best chunk gains 0.1·0.9 + 0.05·0.8 and goes first; its other
	// chunks lose half and three quarters.
	if got[0].ID != cid("b.go", 0) || got[1].ID != cid("a.go", 0) {
		t.Fatalf("order %v", ids(got))
	}
	want := 0.99 + FileBonus*0.9 + FileBonus*FileDecay*0.8
	if math.Abs(got[0].Score-want) > 1e-12 {
		t.Errorf("b's best %.6f, want %.6f", got[0].Score, want)
	}
	if math.Abs(got[2].Score-0.45) > 1e-12 || math.Abs(got[3].Score-0.2) > 1e-12 {
		t.Errorf("b's others %v", got[2:])
	}
}

func cid(path string, ord int) string { return record.ChunkID(path, ord) }

// at is the position of path's first chunk in xs.
func at(xs []Fused, path string) int {
	for i, x := range xs {
		if p, _ := record.SplitChunkID(x.ID); p == path {
			return i
		}
	}
	return -1
}
