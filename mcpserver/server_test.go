package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/internal/indextest"
	"github.com/autorag/autorag/lock"
)

var files = map[string]string{
	"a.md":         "# Alpha\n\nThe heron fishes at dawn.\n\n## Later\n\nThe heron sleeps by the river.\n",
	"b/code.go":    "package b\n\n// ParseConfig reads the heron configuration file.\nfunc ParseConfig() {}\n",
	"docs/boat.md": "# Boats\n\nA boat on the river carries the heron upstream.\n",
	".gitignore":   "secret.txt\n",
	"secret.txt":   "the heron password\n",
}

// connect serves a new indexed root over in-memory transports and
// returns the API and a Go SDK client session connected to it.
func connect(t *testing.T) (*agentapi.API, *mcp.ClientSession) {
	t.Helper()
	api, cs, _ := connectLogged(t)
	return api, cs
}

// lockedBuffer is a log destination safe for the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}
func (b *lockedBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.buf.String() }

// connectLogged is connect with the server's tool-call log.
func connectLogged(t *testing.T) (*agentapi.API, *mcp.ClientSession, *lockedBuffer) {
	t.Helper()
	logs := &lockedBuffer{}
	e := indextest.Files(t, t.TempDir(), files)
	api := agentapi.New(e, agentapi.Options{CacheBytes: 1 << 20})
	t.Cleanup(func() { api.Close() })
	ws := agentapi.Single(e, agentapi.Options{CacheBytes: 1 << 20})
	t.Cleanup(func() { ws.Close() })
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(ws, Options{Version: "test", Log: slog.New(slog.NewJSONHandler(logs, nil))}).Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return api, cs, logs
}

func TestToolCallLog(t *testing.T) {
	_, cs, logs := connectLogged(t)
	call(t, cs, "search", map[string]any{"query": "heron"}, nil)
	call(t, cs, "read", map[string]any{"path": "secret.txt"}, nil)
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	if len(lines) != 2 || lines[0]["tool"] != "search" || lines[0]["code"] != nil ||
		lines[1]["tool"] != "read" || lines[1]["code"] != "refused" {
		t.Errorf("tool-call log: %v", lines)
	}
}

// call calls a tool and decodes its structured content into out; it
// returns the result for its error flag and text.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: protocol error %v", name, err)
	}
	if res.IsError || out == nil {
		return res
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
	checkText(t, name, res, false)
	return res
}

// checkText checks a successful answer's text content: the search
// answer's citations (see searchText) unless jsonCopy, else the same JSON
// as the structured content, for clients that read text only.
func checkText(t *testing.T, name string, res *mcp.CallToolResult, jsonCopy bool) {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", name, len(res.Content))
	}
	if name == "status" && !jsonCopy {
		var a agentapi.StatusAnswer
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatal(err)
		}
		if got := text(res); got != statusText(&a) || !strings.Contains(got, "\n"+a.Roots[0].Root+": ") {
			t.Errorf("status: text content %q, want a line per root %q", got, statusText(&a))
		}
		return
	}
	if name != "search" || jsonCopy {
		var got, want any
		json.Unmarshal([]byte(text(res)), &got)
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &want)
		if got == nil || !cmp.Equal(got, want) {
			t.Errorf("%s: text content is not the structured content's JSON: %q", name, text(res))
		}
		return
	}
	var a agentapi.SearchAnswer
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	if got := text(res); got != searchText(&a) || !strings.HasPrefix(got, fmt.Sprintf("%d results for ", len(a.Results))) {
		t.Errorf("search: text content %q, want the citations %q", got, searchText(&a))
	}
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

func TestListTools(t *testing.T) {
	_, cs := connect(t)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	props := map[string][]string{}
	for _, tool := range res.Tools {
		if tool.Description == "" || tool.OutputSchema == nil {
			t.Errorf("tool %s: no description or output schema", tool.Name)
		}
		b, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(b, &s); err != nil || s.Type != "object" {
			t.Errorf("tool %s: input schema %s", tool.Name, b)
		}
		for p := range s.Properties {
			props[tool.Name] = append(props[tool.Name], p)
		}
	}
	for name := range props {
		slicesSort(props[name])
	}
	want := map[string][]string{
		"search":  {"explain", "filters", "full_text", "k", "max_tokens", "mode", "no_collapse", "path", "per_file", "query", "root", "type"},
		"refresh": {"paths", "root"},
		"read":    {"end", "offset", "path", "root", "start"},
		"status":  {"root"},
	}
	if d := cmp.Diff(want, props); d != "" {
		t.Errorf("tool input properties (-want +got):\n%s", d)
	}
	if len(res.Tools) != 4 {
		t.Errorf("%d tools, want search, refresh, status and read", len(res.Tools))
	}
}

func TestSearchTool(t *testing.T) {
	api, cs := connect(t)
	var got envelope.Query
	call(t, cs, "search", map[string]any{"query": "heron river", "k": 2, "per_file": 2}, &got)
	want, err := api.Engine().Query(t.Context(), engine.QueryOptions{Text: "heron river", K: 2, PerFile: 2})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want.Results, got.Results); d != "" {
		t.Errorf("search tool results differ from engine.Query (-want +got):\n%s", d)
	}
	if !got.OK || got.Query != "heron river" || got.K != 2 || got.Generation != want.Generation || got.Stale == nil || *got.Stale {
		t.Errorf("search envelope = %+v", got)
	}
	var again envelope.Query
	call(t, cs, "search", map[string]any{"query": "heron river", "k": 2, "per_file": 2}, &again)
	if !again.Cached {
		t.Error("repeated search not answered from the service's cache")
	}
	// Errors are tool errors with their code, not protocol errors.
	for _, args := range []map[string]any{{"query": ""}, {"query": "heron", "mode": "fuzzy"}} {
		if res := call(t, cs, "search", args, nil); !res.IsError || !strings.HasPrefix(text(res), "usage: ") {
			t.Errorf("search %v: isError %v, text %q", args, res.IsError, text(res))
		}
	}
	// The schema is enforced: a string for k is refused before the handler.
	if res := call(t, cs, "search", map[string]any{"query": "heron", "k": "ten"}, nil); !res.IsError {
		t.Errorf("k as a string accepted: %q", text(res))
	}
}

func TestRefreshStatusReadTools(t *testing.T) {
	api, cs := connect(t)
	if err := os.WriteFile(filepath.Join(api.Root(), "kingfisher.md"), []byte("# Kingfisher\n\nThe kingfisher dives.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ref envelope.Refresh
	call(t, cs, "refresh", map[string]any{"paths": []string{"kingfisher.md"}}, &ref)
	if !ref.OK || ref.Outcome != engine.OutcomeUpdated || ref.RefreshResult == nil || ref.Added != 1 {
		t.Fatalf("refresh = %+v", ref)
	}
	var q envelope.Query
	call(t, cs, "search", map[string]any{"query": "kingfisher"}, &q)
	if q.Generation != ref.Generation || len(q.Results) == 0 || q.Results[0].Path != "kingfisher.md" {
		t.Errorf("search after refresh: generation %s results %+v", q.Generation, q.Results)
	}
	var st envelope.Status
	call(t, cs, "status", nil, &st)
	if !st.OK || st.Status == nil || st.Generation != ref.Generation || st.Counts.Files != 4 { // .gitignore is hidden
		t.Errorf("status = %+v", st)
	}
	var rd agentapi.ReadResult
	call(t, cs, "read", map[string]any{"path": "kingfisher.md", "start": 3, "end": 3}, &rd)
	if rd.Text != "The kingfisher dives.\n" || rd.Lines != [2]int{3, 3} || rd.TotalLines != 3 {
		t.Errorf("read = %+v", rd)
	}
	for path, code := range map[string]string{"secret.txt": "refused", "../x": "refused", "/etc/passwd": "refused", "none.md": "not_found"} {
		if res := call(t, cs, "read", map[string]any{"path": path}, nil); !res.IsError || !strings.HasPrefix(text(res), code+": ") {
			t.Errorf("read %s: isError %v, text %q; want code %s", path, res.IsError, text(res), code)
		}
	}
	// Busy is a normal result.
	lk, err := lock.Acquire(t.Context(), api.Engine().Layout.LockPath(), 0, "other")
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Release()
	var busy envelope.Refresh
	if res := call(t, cs, "refresh", nil, &busy); res.IsError {
		t.Fatalf("busy refresh is a tool error: %q", text(res))
	}
	if busy.OK || busy.Outcome != "busy" || busy.Holder == nil || busy.Holder.Command != "other" {
		t.Errorf("busy refresh = %+v", busy)
	}
}

func slicesSort(s []string) { sort.Strings(s) }

// TestToolsAnswerTheirSchemas validates every kind of answer against the
// output schema its tool advertises (the server does not check its own
// answers at run time).
func TestToolsAnswerTheirSchemas(t *testing.T) {
	api, cs := connect(t)
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range list.Tools {
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		schemas[tool.Name] = r
	}
	check := func(name string, args map[string]any) {
		t.Helper()
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s %v: %v %q", name, args, err, text(res))
		}
		b, _ := json.Marshal(res.StructuredContent)
		var v any
		json.Unmarshal(b, &v)
		if err := schemas[name].Validate(v); err != nil {
			t.Errorf("%s %v: the answer does not match the output schema: %v\n%s", name, args, err, b)
		}
	}
	check("search", map[string]any{"query": "heron", "explain": true, "k": 3})
	check("search", map[string]any{"query": "absent-term-xyzzy", "mode": "bm25"})
	check("status", nil)
	check("read", map[string]any{"path": "a.md"})
	check("refresh", nil)
	os.WriteFile(filepath.Join(api.Root(), "new.md"), []byte("# New\n"), 0o644)
	check("refresh", map[string]any{"paths": []string{"new.md"}})
	lk, err := lock.Acquire(t.Context(), api.Engine().Layout.LockPath(), 0, "other")
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Release()
	check("refresh", nil)
}
