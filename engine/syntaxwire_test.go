package engine

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/codedef"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/split"
	"github.com/autorag/autorag/engine/syntax"
)

// pyAdapter is a Python file whose definitions the line heuristic would
// cut differently: the decorated method's decorators open its chunk.
const pyAdapter = `"""Adapters."""


class TypeAdapter:
    """Adapts a type."""

    def __init__(self, tp):
        self.tp = tp

    @staticmethod
    def validate_python(value):
        return value


def include_router(router, prefix=""):
    return router
`

// TestRefreshNamesTreeSitterDefinitions: a refresh cuts Python (and a TSX
// file, whose JSX the TypeScript grammar would not read) along
// tree-sitter's definitions, and a query finds the chunk by what it
// defines, its section naming the definition.
func TestRefreshNamesTreeSitterDefinitions(t *testing.T) {
	ctx := context.Background()
	e := newSyntaxEngine(t, map[string]string{
		"adapter.py": pyAdapter,
		"ui/App.tsx": "export function App() {\n  return <div className=\"app\">hello</div>;\n}\n\nexport class Panel extends Base {\n  render() { return <App />; }\n}\n",
	})
	r, err := e.Refresh(ctx, RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Failures {
		t.Errorf("failure %+v", f)
	}
	q, err := e.Query(ctx, QueryOptions{Text: "include_router", K: 10, PerFile: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Results) == 0 || q.Results[0].Path != "adapter.py" {
		t.Fatalf("results %+v", q.Results)
	}
	got := q.Results[0]
	if !hasDef(got.Defs, "include_router") || !hasDef(got.Defs, "TypeAdapter") {
		t.Fatalf("chunk %q defines %+v", got.Section, got.Defs)
	}
	q, err = e.Query(ctx, QueryOptions{Text: "Panel render", K: 10, PerFile: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Results) == 0 || q.Results[0].Path != "ui/App.tsx" || !hasDef(q.Results[0].Defs, "Panel") || !hasDef(q.Results[0].Defs, "render") {
		t.Fatalf("tsx results %+v", q.Results)
	}
}

func hasDef(defs []rank.Def, name string) bool {
	return slices.ContainsFunc(defs, func(d rank.Def) bool { return d.Name == name })
}

// TestSyntaxFallbackNoted: a file the syntax parser refuses (past its
// size limit) is indexed, cut by the line heuristic, and listed in the
// refresh's failures as indexed, with the reason; it does not count as
// failed.
func TestSyntaxFallbackNoted(t *testing.T) {
	ctx := context.Background()
	var big strings.Builder
	for i := 0; big.Len() <= syntax.MaxBytes; i++ {
		big.WriteString("def f" + strings.Repeat("x", 40) + "(a, b):\n    return a + b\n\n\n")
	}
	e := newSyntaxEngine(t, map[string]string{"big.py": big.String(), "small.py": pyAdapter})
	r, err := e.Refresh(ctx, RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed != 0 || r.Files != 2 || len(r.Failures) != 1 {
		t.Fatalf("failed %d, files %d, failures %+v", r.Failed, r.Files, r.Failures)
	}
	f := r.Failures[0]
	if f.Path != "big.py" || !f.Indexed || !strings.Contains(f.Reason, "line heuristic") || !strings.Contains(f.Reason, "bytes") {
		t.Fatalf("failure %+v", f)
	}
	q, err := e.Query(ctx, QueryOptions{Text: "f" + strings.Repeat("x", 40), K: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Results) == 0 || q.Results[0].Path != "big.py" {
		t.Fatalf("the fallen-back file is not searchable: %+v", q.Results)
	}
}

// TestChunkingParsesConcurrently: a refresh hands files to the syntax
// parser on every core at once (chunkAhead): with as many Python files as
// cores, that many parses are in flight together. The finder waits for
// its peers, so a refresh that parsed one file at a time would see a
// peak of one.
func TestChunkingParsesConcurrently(t *testing.T) {
	want := min(runtime.GOMAXPROCS(0), 4)
	if want < 2 {
		t.Skip("one core: nothing runs concurrently") // GOMAXPROCS=1 only
	}
	files := map[string]string{}
	for i := range 3 * want {
		files[string(rune('a'+i))+".py"] = pyAdapter + "\n# " + string(rune('a'+i)) + "\n"
	}
	e := newSyntaxEngine(t, files)
	var mu sync.Mutex
	inFlight, peak := 0, 0
	reached := make(chan struct{})
	saved := findDefs
	t.Cleanup(func() { findDefs = saved })
	findDefs = split.DefFunc(func(ctx context.Context, lang string, src []byte) ([]codedef.Def, error) {
		mu.Lock()
		inFlight++
		if inFlight > peak {
			peak = inFlight
			if peak == want {
				close(reached)
			}
		}
		mu.Unlock()
		select { // wait for the peers (bounded: a serial refresh must still finish)
		case <-reached:
		case <-time.After(2 * time.Second):
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
		return saved.Defs(ctx, lang, src)
	})
	if _, err := e.Refresh(context.Background(), RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	if peak != want {
		t.Fatalf("at most %d parses in flight, want %d (one per core)", peak, want)
	}
}

// TestColdQueryNeverStartsSyntax: a process that only queries an index
// of code never starts the tree-sitter module. The query runs in a fresh
// process (the refresh here started it in this one).
func TestColdQueryNeverStartsSyntax(t *testing.T) {
	if root := os.Getenv("AUTORAG_COLD_QUERY_ROOT"); root != "" {
		s := DefaultSettings()
		s.Chunk.Syntax = true
		e, err := New(root, s)
		if err != nil {
			t.Fatal(err)
		}
		q, err := e.Query(context.Background(), QueryOptions{Text: "include_router", K: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(q.Results) == 0 {
			t.Fatal("no results")
		}
		if syntax.Started() {
			t.Fatal("a query started the tree-sitter module")
		}
		return
	}
	e := newSyntaxEngine(t, map[string]string{"adapter.py": pyAdapter, "ui/App.tsx": "export function App() { return <div/>; }\n"})
	if _, err := e.Refresh(context.Background(), RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	if !syntax.Started() {
		t.Fatal("the refresh did not start the module: the test shows nothing")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestColdQueryNeverStartsSyntax$", "-test.count=1")
	cmd.Env = append(os.Environ(), "AUTORAG_COLD_QUERY_ROOT="+e.Layout.Root)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("query process: %v\n%s", err, out)
	}
}

// TestDefaultChunkingNeverParses: without the syntax_trees setting a
// refresh of code never asks the syntax parser (its first refresh would
// cost several times the CPU), and its chunker fingerprint says which
// chunking an index holds, so turning the setting on rebuilds.
func TestDefaultChunkingNeverParses(t *testing.T) {
	e := newTestEngine(t, map[string]string{"adapter.py": pyAdapter, "ui/App.tsx": "export function App() { return 1; }\n"})
	var calls atomic.Int32 // the chunker parses files on several goroutines
	saved := findDefs
	t.Cleanup(func() { findDefs = saved })
	findDefs = split.DefFunc(func(ctx context.Context, lang string, src []byte) ([]codedef.Def, error) {
		calls.Add(1)
		return saved.Defs(ctx, lang, src)
	})
	if _, err := e.Refresh(context.Background(), RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 0 {
		t.Fatalf("the default refresh asked the syntax parser %d times", calls.Load())
	}
	e.Settings.Chunk.Syntax = true
	r, err := e.Refresh(context.Background(), RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != OutcomeRebuilt || calls.Load() != 2 {
		t.Fatalf("with syntax_trees on: outcome %s, %d parses; want rebuilt, 2", r.Outcome, calls.Load())
	}
}
