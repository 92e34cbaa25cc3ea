package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/internal/indextest"
)

// connectTwo serves a workspace of two roots, "docs" (files) and "code",
// to a Go SDK client.
func connectTwo(t *testing.T) (*agentapi.Workspace, *mcp.ClientSession) {
	t.Helper()
	code := map[string]string{
		"retry.go": "package net\n\n// Retry sends the heron request again with exponential backoff.\nfunc Retry() {}\n",
		"conf.go":  "package net\n\n// Config holds settings.\ntype Config struct{}\n",
	}
	ws, err := agentapi.NewWorkspace([]agentapi.Member{{Name: "docs", Engine: indextest.Files(t, filepath.Join(t.TempDir(), "docs"), files)}, {Name: "code", Engine: indextest.Files(t, filepath.Join(t.TempDir(), "code"), code)}},
		agentapi.WorkspaceOptions{Options: agentapi.Options{CacheBytes: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(ws, Options{Version: "test"}).Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return ws, cs
}

func rootsOf(a agentapi.SearchAnswer) map[string]int {
	n := map[string]int{}
	for _, h := range a.Results {
		n[h.Root]++
	}
	return n
}

// TestTwoRoots drives a two-root server with the Go SDK client: search
// across both and per root, refresh one while the other answers, and one
// root deleted under the server; every answer matches its output schema.
func TestTwoRoots(t *testing.T) {
	ws, cs := connectTwo(t)
	schemas := outputSchemas(t, cs)
	checked := func(name string, args map[string]any, out any) *mcp.CallToolResult {
		t.Helper()
		res := call(t, cs, name, args, out)
		if !res.IsError {
			validate(t, schemas[name], name, res)
		}
		return res
	}
	var all agentapi.SearchAnswer
	checked("search", map[string]any{"query": "heron"}, &all)
	if n := rootsOf(all); n["docs"] == 0 || n["code"] == 0 || len(all.Roots) != 2 {
		t.Fatalf("search of both roots: %v, roots %+v", n, all.Roots)
	}
	var one agentapi.SearchAnswer
	checked("search", map[string]any{"query": "heron", "root": "code"}, &one)
	if n := rootsOf(one); n["docs"] != 0 || n["code"] != 1 || one.Generation == "" {
		t.Errorf("search of code: %v, generation %q", n, one.Generation)
	}
	var budgeted agentapi.SearchAnswer
	checked("search", map[string]any{"query": "heron", "max_tokens": 60}, &budgeted)
	if budgeted.Tokens == 0 || budgeted.Tokens > 60 || budgeted.Encoding == "" {
		t.Errorf("max_tokens 60: tokens %d encoding %q", budgeted.Tokens, budgeted.Encoding)
	}
	var st agentapi.StatusAnswer
	checked("status", nil, &st)
	if len(st.Roots) != 2 || !st.Roots[0].OK || !st.Roots[1].OK || st.Status != nil {
		t.Errorf("status of two roots: %+v", st)
	}
	checked("status", map[string]any{"root": "docs"}, &st)
	if st.Name != "docs" || st.Status == nil || st.Counts.Files != 3 { // files less the hidden .gitignore
		t.Errorf("status of docs: %+v", st)
	}
	// Refresh one root while the other answers searches.
	docs := ws.Engines()[0].Layout.Root
	for i := range 8 {
		os.WriteFile(filepath.Join(docs, fmt.Sprintf("k%d.md", i)), []byte(strings.Repeat("# Kingfisher\n\nThe kingfisher dives.\n\n", 200)), 0o644)
	}
	done := make(chan *mcp.CallToolResult, 1)
	var ref agentapi.RefreshAnswer
	go func() {
		res, _ := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "refresh", Arguments: map[string]any{"root": "docs"}})
		done <- res
	}()
	for waiting := true; waiting; {
		var a agentapi.SearchAnswer
		checked("search", map[string]any{"query": "retry backoff", "root": "code"}, &a)
		if len(a.Results) == 0 {
			t.Fatal("code did not answer while docs refreshed")
		}
		select {
		case res := <-done:
			waiting = false
			b, _ := json.Marshal(res.StructuredContent)
			json.Unmarshal(b, &ref)
			validate(t, schemas["refresh"], "refresh", res)
		default:
		}
	}
	if !ref.OK || ref.Root != "docs" || ref.Added != 8 {
		t.Fatalf("refresh of docs: %+v", ref)
	}
	var refAll agentapi.RefreshAnswer
	checked("refresh", nil, &refAll)
	if !refAll.OK || refAll.Outcome != engine.OutcomeUnchanged || len(refAll.Roots) != 2 {
		t.Errorf("refresh of both: %+v", refAll)
	}
	var rd agentapi.RootRead
	checked("read", map[string]any{"root": "code", "path": "retry.go", "start": 3, "end": 3}, &rd)
	if rd.Root != "code" || !strings.Contains(rd.Text, "exponential backoff") {
		t.Errorf("read code/retry.go: %+v", rd)
	}
	if res := call(t, cs, "read", map[string]any{"path": "retry.go"}, nil); !res.IsError || !strings.HasPrefix(text(res), "usage: ") {
		t.Errorf("read without a root: %q", text(res))
	}
	// One root deleted under the server: the other still answers.
	if err := os.RemoveAll(docs); err != nil {
		t.Fatal(err)
	}
	var after agentapi.SearchAnswer
	checked("search", map[string]any{"query": "heron"}, &after)
	if n := rootsOf(after); n["docs"] != 0 || n["code"] == 0 || after.Roots[0].OK || after.Roots[0].Error == nil {
		t.Errorf("search after deleting docs: %v, roots %+v", n, after.Roots)
	}
	checked("status", nil, &st)
	if st.Roots[0].OK || !st.Roots[1].OK {
		t.Errorf("status after deleting docs: %+v", st.Roots)
	}
	if res := call(t, cs, "refresh", map[string]any{"root": "docs"}, nil); !res.IsError {
		t.Errorf("refresh of the deleted root: %q", text(res))
	}
	if _, err := os.Stat(docs); !os.IsNotExist(err) {
		t.Errorf("the deleted root came back: %v", err)
	}
}

func outputSchemas(t *testing.T, cs *mcp.ClientSession) map[string]*jsonschema.Resolved {
	t.Helper()
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Resolved{}
	for _, tool := range list.Tools {
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if s.Type != "object" {
			t.Errorf("%s: output schema of type %q; the MCP spec wants an object", tool.Name, s.Type)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		out[tool.Name] = r
	}
	return out
}

func validate(t *testing.T, s *jsonschema.Resolved, name string, res *mcp.CallToolResult) {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var v any
	json.Unmarshal(b, &v)
	if err := s.Validate(v); err != nil {
		t.Errorf("%s: the answer does not match its output schema: %v\n%s", name, err, b)
	}
}
