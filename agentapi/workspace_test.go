package agentapi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autorag/autorag/budget"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/internal/indextest"
)

// newRoot indexes files in a new directory named name.
func newRoot(t *testing.T, name string, files map[string]string) *engine.Engine {
	t.Helper()
	return indextest.Files(t, filepath.Join(t.TempDir(), name), files)
}

var birdFiles = map[string]string{
	"heron.md":  "# Herons\n\nThe grey heron fishes at dawn by the river.\n",
	"robin.md":  "# Robins\n\nThe robin sings in the garden.\n",
	"boats.txt": "nothing about birds, a boat on the river\n",
}

var codeFiles = map[string]string{
	"retry.go":  "package net\n\n// Retry retries a heron request with exponential backoff.\nfunc Retry() {}\n",
	"config.go": "package net\n\n// Config holds the settings.\ntype Config struct{}\n",
}

func newWorkspace(t *testing.T, o WorkspaceOptions) *Workspace {
	t.Helper()
	w, err := NewWorkspace([]Member{{"birds", newRoot(t, "birds", birdFiles)}, {"code", newRoot(t, "code", codeFiles)}}, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func wsearch(t *testing.T, w *Workspace, r WorkspaceSearch) *SearchAnswer {
	t.Helper()
	a, err := w.Search(t.Context(), r)
	if err != nil {
		t.Fatalf("search %+v: %v", r, err)
	}
	return a
}

func roots(a *SearchAnswer) map[string]int {
	n := map[string]int{}
	for _, h := range a.Results {
		n[h.Root]++
	}
	return n
}

func TestWorkspaceSearchesEveryRoot(t *testing.T) {
	w := newWorkspace(t, WorkspaceOptions{})
	a := wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}})
	if n := roots(a); n["birds"] == 0 || n["code"] == 0 {
		t.Fatalf("heron over both roots: %v", n)
	}
	if len(a.Roots) != 2 || !a.Roots[0].OK || !a.Roots[1].OK || a.Generation != "" || a.Stale == nil {
		t.Errorf("roots %+v, generation %q, stale %v", a.Roots, a.Generation, a.Stale)
	}
	for i, h := range a.Results {
		if h.Rank != i+1 || i > 0 && h.Score > a.Results[i-1].Score {
			t.Errorf("result %d: rank %d score %g after %g", i, h.Rank, h.Score, a.Results[max(i-1, 0)].Score)
		}
	}
	// One root by name, or by a path inside it.
	for _, root := range []string{"code", filepath.Join(w.Engines()[1].Layout.Root, "retry.go")} {
		one := wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}, Root: root})
		if n := roots(one); n["birds"] != 0 || n["code"] == 0 || one.Generation == "" || len(one.Roots) != 1 {
			t.Errorf("root %s: %v, generation %q", root, n, one.Generation)
		}
	}
	if _, err := w.Search(t.Context(), WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}, Root: "nope"}); Code(err) != envelope.CodeUsage {
		t.Errorf("unknown root: %v", err)
	}
}

// TestWorkspaceSingleRootAnswersLikeAPI: with one root the merged answer
// is that root's, results and scores unchanged.
func TestWorkspaceSingleRootAnswersLikeAPI(t *testing.T) {
	a := newAPI(t)
	w := Single(a.Engine(), Options{})
	defer w.Close()
	want := search(t, a, SearchRequest{Query: "heron river", K: intp(3)})
	got := wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron river", K: intp(3)}})
	if len(got.Results) != len(want.Results) || got.Generation != want.Generation {
		t.Fatalf("got %d results of %s, want %d of %s", len(got.Results), got.Generation, len(want.Results), want.Generation)
	}
	for i := range want.Results {
		if got.Results[i].Result.Path != want.Results[i].Path || got.Results[i].Score != want.Results[i].Score || got.Results[i].RootScore != nil {
			t.Errorf("result %d: %+v, want %+v", i, got.Results[i], want.Results[i])
		}
	}
}

// TestWorkspaceRootDeleted: a root removed under the workspace fails alone.
func TestWorkspaceRootDeleted(t *testing.T) {
	w := newWorkspace(t, WorkspaceOptions{})
	wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}}) // both open
	if err := os.RemoveAll(w.Engines()[0].Layout.Root); err != nil {
		t.Fatal(err)
	}
	a := wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}})
	if n := roots(a); n["birds"] != 0 || n["code"] == 0 || a.Roots[0].OK || a.Roots[0].Error == nil || !a.Roots[1].OK {
		t.Errorf("after deleting birds: %v, roots %+v", n, a.Roots)
	}
	st, err := w.Status(t.Context(), StatusRequest{})
	if err != nil || st.Roots[0].OK || st.Roots[0].Error == nil || !st.Roots[1].OK || st.Roots[1].Files != 2 {
		t.Errorf("status: %v %+v", err, st)
	}
	if _, err := w.Search(t.Context(), WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}, Root: "birds"}); err == nil {
		t.Error("searching only the deleted root succeeded")
	}
	ref, err := w.Refresh(t.Context(), WorkspaceRefresh{})
	if err != nil || ref.OK || ref.Roots[0].Failure == nil || !ref.Roots[1].OK {
		t.Errorf("refresh of both: %v %+v", err, ref)
	}
}

// TestWorkspaceRefreshOneWhileOtherAnswers: searches of one root go on
// while the other refreshes, and each root's refresh is its own.
func TestWorkspaceRefreshOneWhileOtherAnswers(t *testing.T) {
	w := newWorkspace(t, WorkspaceOptions{})
	birds := w.Engines()[0].Layout.Root
	var big strings.Builder
	for i := range 300 {
		big.WriteString(strings.Repeat("kingfisher dives for fish in the stream ", 8) + "\n\n")
		if i%50 == 0 {
			indextest.WriteTree(t, birds, map[string]string{filepathf("k%d.md", i): big.String()})
		}
	}
	var ref *RefreshAnswer
	var refErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		ref, refErr = w.Refresh(t.Context(), WorkspaceRefresh{Root: "birds"})
	}()
	for running := true; running; {
		a := wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "retry backoff"}, Root: "code"})
		if len(a.Results) == 0 {
			t.Fatal("code stopped answering during the birds refresh")
		}
		select {
		case <-done:
			running = false
		case <-time.After(time.Millisecond):
		}
	}
	if refErr != nil || !ref.OK || ref.Root != "birds" || ref.Added != 6 {
		t.Fatalf("refresh birds: %v %+v", refErr, ref)
	}
	a := wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "kingfisher"}})
	if len(a.Results) == 0 || a.Results[0].Root != "birds" {
		t.Errorf("kingfisher after the refresh: %+v", a.Results)
	}
	st, err := w.Status(t.Context(), StatusRequest{Root: "code"})
	if err != nil || st.Name != "code" || st.Status == nil || st.Counts.Files != 2 || len(st.Roots) != 1 {
		t.Errorf("status of code: %v %+v", err, st)
	}
	if _, err := w.Refresh(t.Context(), WorkspaceRefresh{RefreshRequest: RefreshRequest{Paths: []string{"a.md"}}}); Code(err) != envelope.CodeUsage {
		t.Errorf("paths without a root: %v", err)
	}
}

func filepathf(format string, args ...any) string {
	return filepath.ToSlash(fmt.Sprintf(format, args...))
}

func TestWorkspaceReadNeedsARoot(t *testing.T) {
	w := newWorkspace(t, WorkspaceOptions{})
	if _, err := w.Read(t.Context(), WorkspaceRead{ReadRequest: ReadRequest{Path: "heron.md"}}); Code(err) != envelope.CodeUsage {
		t.Errorf("read without a root: %v", err)
	}
	r, err := w.Read(t.Context(), WorkspaceRead{ReadRequest: ReadRequest{Path: "heron.md"}, Root: "birds"})
	if err != nil || r.Root != "birds" || !strings.Contains(r.Text, "grey heron") {
		t.Errorf("read birds/heron.md: %v %+v", err, r)
	}
}

// TestWorkspaceClosesIdleRoots: an idle root's generation is closed and
// reopened by the next search, which answers alike.
func TestWorkspaceClosesIdleRoots(t *testing.T) {
	w := newWorkspace(t, WorkspaceOptions{IdleClose: 20 * time.Millisecond})
	first := wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}})
	if got := w.OpenRoots(); len(got) != 2 {
		t.Fatalf("open after a search: %v", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(w.OpenRoots()) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("still open: %v", w.OpenRoots())
		}
		time.Sleep(5 * time.Millisecond)
	}
	again := wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}})
	if len(again.Results) != len(first.Results) || again.Results[0].Path != first.Results[0].Path {
		t.Errorf("after reopening: %+v, before %+v", again.Results, first.Results)
	}
}

func TestWorkspaceMaxTokens(t *testing.T) {
	var long strings.Builder
	long.WriteString("# Notes\n\n")
	for i := range 60 {
		if i == 41 {
			long.WriteString("The heron line that matters.\n")
			continue
		}
		long.WriteString("Filler sentence number that says nothing much at all.\n")
	}
	w, err := NewWorkspace([]Member{{"notes", newRoot(t, "notes", map[string]string{"long.md": long.String(), "short.md": "# Short\n\nheron\n"})}}, WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	a := wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron", PerFile: 5}, MaxTokens: 120})
	if a.MaxTokens != 120 || a.Tokens > 120 || a.Tokens == 0 || a.Encoding != budget.Encoding {
		t.Fatalf("budget fields: max %d tokens %d encoding %q", a.MaxTokens, a.Tokens, a.Encoding)
	}
	var trimmed *Hit
	for i := range a.Results {
		if a.Results[i].Trimmed {
			trimmed = &a.Results[i]
		}
	}
	if trimmed == nil || !strings.Contains(trimmed.Text, "heron line that matters") || strings.Contains(trimmed.Text, "omitted") || len(trimmed.ShownLines) != 1 {
		t.Fatalf("no trimmed passage keeping the heron line: %+v", a.Results)
	}
	if md := Markdown(a); budget.Count(md) > 120+budget.Count("Search results for \"heron\" (autorag; cite a passage by its location):\n") ||
		!strings.Contains(md, Citation(*trimmed, false)) {
		t.Errorf("markdown over budget or without the citation:\n%s", md)
	}
	if _, err := w.Search(t.Context(), WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}, MaxTokens: -1}); Code(err) != envelope.CodeUsage {
		t.Errorf("negative max_tokens: %v", err)
	}
}

// TestWorkspaceDefaultRoot: a request naming no root goes to the default;
// "all" still reaches every root.
func TestWorkspaceDefaultRoot(t *testing.T) {
	w := newWorkspace(t, WorkspaceOptions{Default: "code"})
	if n := roots(wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}})); n["birds"] != 0 || n["code"] == 0 {
		t.Errorf("default root code: %v", n)
	}
	if n := roots(wsearch(t, w, WorkspaceSearch{SearchRequest: SearchRequest{Query: "heron"}, Root: AllRoots})); n["birds"] == 0 || n["code"] == 0 {
		t.Errorf("root all: %v", n)
	}
	if r, err := w.Read(t.Context(), WorkspaceRead{ReadRequest: ReadRequest{Path: "retry.go"}}); err != nil || r.Root != "code" {
		t.Errorf("read in the default root: %v %+v", err, r)
	}
	if _, err := NewWorkspace([]Member{{"a", w.Engines()[0]}}, WorkspaceOptions{Default: "nope"}); Code(err) != envelope.CodeUsage {
		t.Errorf("an unknown default: %v", err)
	}
	if _, err := NewWorkspace([]Member{{AllRoots, w.Engines()[0]}}, WorkspaceOptions{}); Code(err) != envelope.CodeUsage {
		t.Errorf("a root named all: %v", err)
	}
	if RootName("/x/all") == AllRoots {
		t.Error("a directory named all gives a root named all")
	}
}
