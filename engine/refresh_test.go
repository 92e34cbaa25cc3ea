package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autorag/autorag/fingerprint"
)

func newTestEngine(t *testing.T, files map[string]string) *Engine {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := New(root, DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// newSyntaxEngine is newTestEngine with code cut along tree-sitter's
// definitions (the syntax_trees setting).
func newSyntaxEngine(t *testing.T, files map[string]string) *Engine {
	t.Helper()
	e := newTestEngine(t, files)
	e.Settings.Chunk.Syntax = true
	return e
}

func paths(res *QueryResult) []string {
	var out []string
	for _, r := range res.Results {
		out = append(out, r.Path)
	}
	return out
}

func TestRefreshAndQueryInProcess(t *testing.T) {
	ctx := context.Background()
	e := newTestEngine(t, map[string]string{
		"a.md":      "# Alpha\n\nThe heron fishes at dawn.\n\n## Later\n\nThe heron sleeps.\n",
		"b/code.go": "package b\n\n// ParseConfig reads the heron configuration.\nfunc ParseConfig() {}\n",
		"c.txt":     "nothing relevant here\n",
	})
	r, err := e.Refresh(ctx, RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != OutcomeRebuilt || r.Files != 3 {
		t.Fatalf("first refresh: %+v", r)
	}
	q, err := e.Query(ctx, QueryOptions{Text: "heron", K: 10, PerFile: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Both files that say heron, and only they (which comes first is the
	// code signals' to say: in a tree that is half code, a text page is
	// demoted, rank.CodeRerank).
	if got := paths(q); len(got) != 2 || !slices.Contains(got, "a.md") || !slices.Contains(got, "b/code.go") {
		t.Fatalf("heron: %v", got)
	}
	// Identifier parts match: "parse config" finds ParseConfig.
	q, err = e.Query(ctx, QueryOptions{Text: "parse config", PathGlob: "*.go"})
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(q); len(got) != 1 || got[0] != "b/code.go" {
		t.Fatalf("parse config in *.go: %v", got)
	}
	if res := q.Results[0]; res.Lines[0] < 1 || res.Lines[1] < res.Lines[0] || !strings.Contains(res.Text, "ParseConfig") {
		t.Errorf("result lacks lines or text: %+v", res)
	}
	// --per-file 2 returns both chunks of a.md.
	q, _ = e.Query(ctx, QueryOptions{Text: "heron", K: 10, PerFile: 2})
	if n := strings.Count(strings.Join(paths(q), " "), "a.md"); n != 2 {
		t.Errorf("per-file 2 returned a.md %d times: %v", n, paths(q))
	}
}

// TestFailedBuildKeepsServing cancels a refresh in the middle of its build:
// the committed generation stays named and served, and nothing is left.
func TestFailedBuildKeepsServing(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.md": "# A\n\nheron\n", "b.md": "# B\n\negret\n"})
	first, err := e.Refresh(context.Background(), RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"c.md", "d.md"} {
		os.WriteFile(filepath.Join(e.Layout.Root, f), []byte("# New\n\nheron egret\n"), 0o644)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = e.Refresh(ctx, RefreshOptions{Rebuild: true, Progress: cancelWhenIndexing{cancel}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled rebuild returned %v, want context.Canceled", err)
	}
	sc, err := fingerprint.ReadSidecar(e.Layout.SidecarPath())
	if err != nil || sc.Generation != first.Generation {
		t.Fatalf("sidecar after failed rebuild: %v %v, want generation %s", sc, err, first.Generation)
	}
	gens, _ := e.Layout.Generations()
	if len(gens) != 1 || gens[0] != first.Generation {
		t.Errorf("generations after failed rebuild: %v", gens)
	}
	if names := dirNames(t, e.Layout.IndexDir()); len(names) != 1 || names[0] != first.Generation {
		t.Errorf("index directory after failed rebuild: %v, want only %s", names, first.Generation)
	}
	q, err := e.Query(context.Background(), QueryOptions{Text: "heron egret"})
	if err != nil || len(q.Results) != 2 {
		t.Fatalf("query after failed rebuild: %v %v", q, err)
	}
}

// TestDamagedGenerationRebuilds removes a segment file of the committed
// generation: the no-op check notices, and the refresh rebuilds instead of
// trusting it.
func TestDamagedGenerationRebuilds(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.md": "# A\n\nheron\n"})
	first, err := e.Refresh(context.Background(), RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	zaps, _ := filepath.Glob(filepath.Join(e.Layout.GenDir(first.Generation), "bleve", "store", "*.zap"))
	if len(zaps) == 0 {
		t.Fatal("no segment files")
	}
	os.Remove(zaps[0])
	r, err := e.Refresh(context.Background(), RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != OutcomeRebuilt {
		t.Fatalf("refresh over a damaged generation: outcome %s, want rebuilt", r.Outcome)
	}
	if q, err := e.Query(context.Background(), QueryOptions{Text: "heron"}); err != nil || len(q.Results) != 1 {
		t.Fatalf("query after repair: %v %v", q, err)
	}
}

func TestVerifyDetectsCorruption(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.md": "# A\n\nheron\n"})
	r, err := e.Refresh(context.Background(), RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := e.Verify(context.Background()); err != nil || len(p) != 0 {
		t.Fatalf("verify of a fresh index: %v %v", p, err)
	}
	ft := filepath.Join(e.Layout.GenDir(r.Generation), "files.bin")
	b, _ := os.ReadFile(ft)
	b[len(b)/2] ^= 1
	os.WriteFile(ft, b, 0o644)
	p, err := e.Verify(context.Background())
	if err != nil || len(p) != 1 || !strings.HasSuffix(p[0].Path, "files.bin") {
		t.Fatalf("verify after corrupting files.bin: %v %v", p, err)
	}
}

// TestRepeatedRefreshInProcess runs many refreshes in one process, as
// watch will: every generation must open and answer (bleve writes into the
// config map it is given, which once pointed a new index at an old store).
func TestRepeatedRefreshInProcess(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.md": "# A\n\nheron\n", "b.md": "# B\n\negret\n"})
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		os.WriteFile(filepath.Join(e.Layout.Root, "a.md"), []byte(strings.Repeat("heron ", i+1)+"\n"), 0o644)
		r, err := e.Refresh(ctx, RefreshOptions{})
		if err != nil {
			t.Fatalf("refresh %d: %v", i, err)
		}
		if i > 0 && r.Outcome != OutcomeUpdated {
			t.Fatalf("refresh %d: outcome %s", i, r.Outcome)
		}
		q, err := e.Query(ctx, QueryOptions{Text: "heron egret"})
		if err != nil || len(q.Results) != 2 {
			t.Fatalf("query after refresh %d: %v %v", i, q, err)
		}
	}
}

// TestRefreshRemovesGarbage leaves what crashed refreshes leave in the index
// directory: a no-op refresh and a committing one both remove everything
// but the generation the sidecar names.
func TestRefreshRemovesGarbage(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.md": "# A\n\nheron\n"})
	litter := func() {
		t.Helper()
		for _, dir := range []string{"000000042/bleve", "junk"} {
			if err := os.MkdirAll(filepath.Join(e.Layout.IndexDir(), dir), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range []string{"000000042/files.bin", fingerprint.TempPrefix + "x", "000000043"} {
			if err := os.WriteFile(filepath.Join(e.Layout.IndexDir(), f), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	first, err := e.Refresh(context.Background(), RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	litter()
	r, err := e.Refresh(context.Background(), RefreshOptions{})
	if err != nil || r.Outcome != OutcomeUnchanged {
		t.Fatalf("no-op refresh: %+v %v", r, err)
	}
	if names := dirNames(t, e.Layout.IndexDir()); len(names) != 1 || names[0] != first.Generation {
		t.Errorf("index directory after a no-op refresh: %v, want only %s", names, first.Generation)
	}
	litter()
	if err := os.WriteFile(filepath.Join(e.Layout.Root, "b.md"), []byte("# B\n\negret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = e.Refresh(context.Background(), RefreshOptions{})
	if err != nil || r.Outcome != OutcomeUpdated {
		t.Fatalf("refresh after an edit: %+v %v", r, err)
	}
	if names := dirNames(t, e.Layout.IndexDir()); len(names) != 1 || names[0] != r.Generation {
		t.Errorf("index directory after a commit: %v, want only %s", names, r.Generation)
	}
	if q, err := e.Query(context.Background(), QueryOptions{Text: "heron egret"}); err != nil || len(q.Results) != 2 {
		t.Fatalf("query after the commit: %v %v", q, err)
	}
}

// cancelWhenIndexing cancels a refresh once its first file is indexed.
type cancelWhenIndexing struct{ cancel func() }

func (c cancelWhenIndexing) Phase(string, string, int) {}
func (c cancelWhenIndexing) Add(int)                   { c.cancel() }
func (c cancelWhenIndexing) Detail(string)             {}
