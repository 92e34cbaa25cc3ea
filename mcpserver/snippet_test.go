package mcpserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/internal/indextest"
)

// longFile is one passage of 30 lines; only line 17 holds "kingfisher".
func longFile() string {
	var b strings.Builder
	b.WriteString("# Birds\n\n")
	for i := 3; i <= 30; i++ {
		if i == 17 {
			b.WriteString("The kingfisher dives into the cold river for a small fish.\n")
			continue
		}
		fmt.Fprintf(&b, "Line %d says something about herons standing in the shallow water.\n", i)
	}
	return b.String()
}

func connectLong(t *testing.T, o Options) (*engine.Engine, *mcp.ClientSession, *mcp.Server) {
	t.Helper()
	e := indextest.Files(t, t.TempDir(), map[string]string{"birds.md": longFile()})
	ws := agentapi.Single(e, agentapi.Options{CacheBytes: 1 << 20})
	t.Cleanup(func() { ws.Close() })
	srv := New(ws, o)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return e, cs, srv
}

// TestSearchSendsSnippetsUnlessFullText: by default a long passage comes
// back as one run of lines around its best-matching ones; full_text
// and max_tokens give the whole passage.
func TestSearchSendsSnippetsUnlessFullText(t *testing.T) {
	e, cs, _ := connectLong(t, Options{Version: "test"})
	want, err := e.Query(t.Context(), engine.QueryOptions{Text: "kingfisher", K: 1, PerFile: 1})
	if err != nil || len(want.Results) != 1 || len(want.Results[0].Text) <= agentapi.SnippetChars {
		t.Fatalf("the passage must be longer than a snippet: %v %+v", err, want)
	}
	whole := want.Results[0]

	var snip agentapi.SearchAnswer
	call(t, cs, "search", map[string]any{"query": "kingfisher", "k": 1}, &snip)
	h := snip.Results[0]
	if !h.Trimmed || len(h.ShownLines) != 1 || !strings.Contains(h.Text, "The kingfisher dives") ||
		strings.Contains(h.Text, "omitted …]") || len(h.Text) > agentapi.SnippetChars {
		t.Fatalf("default search did not send a snippet: %+v", h)
	}
	for _, l := range h.ShownLines {
		if l[0] < whole.Lines[0] || l[1] > whole.Lines[1] || l[0] > l[1] {
			t.Errorf("shown lines %v outside the passage's %v", h.ShownLines, whole.Lines)
		}
	}
	if !covers(h.ShownLines, 17) {
		t.Errorf("shown lines %v leave out line 17, the match", h.ShownLines)
	}
	if h.Lines != whole.Lines || h.Path != whole.Path {
		t.Errorf("a snippet keeps its passage's place: %v %s, want %v %s", h.Lines, h.Path, whole.Lines, whole.Path)
	}

	for _, args := range []map[string]any{
		{"query": "kingfisher", "k": 1, "full_text": true},
		{"query": "kingfisher", "k": 1, "max_tokens": 4000},
	} {
		var full agentapi.SearchAnswer
		call(t, cs, "search", args, &full)
		if got := full.Results[0]; got.Trimmed || got.Text != whole.Text || got.ShownLines != nil {
			t.Errorf("search %v: not the whole passage: %+v", args, got)
		}
	}
}

func covers(ranges [][2]int, line int) bool {
	for _, r := range ranges {
		if r[0] <= line && line <= r[1] {
			return true
		}
	}
	return false
}

// TestSearchTextCopy: the JSON goes out as text too with Options.TextCopy,
// and to a client of a protocol version before structured content.
func TestSearchTextCopy(t *testing.T) {
	_, cs, _ := connectLong(t, Options{Version: "test", TextCopy: true})
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "kingfisher"}})
	if err != nil || res.IsError {
		t.Fatal(err, text(res))
	}
	checkText(t, "search", res, true)

	_, _, srv := connectLong(t, Options{Version: "test"})
	for version, jsonCopy := range map[string]bool{"2025-03-26": true, "2024-11-05": true, "2025-06-18": false} {
		got := rawSearch(t, srv, version)
		var a agentapi.SearchAnswer
		b, _ := json.Marshal(got.StructuredContent)
		if err := json.Unmarshal(b, &a); err != nil || len(a.Results) == 0 {
			t.Fatalf("%s: structured content %s: %v", version, b, err)
		}
		checkText(t, "search", got, jsonCopy)
	}
}

// rawSearch speaks JSON-RPC to srv over stdio pipes as a client of
// protocol version would, and returns its search tool result.
func rawSearch(t *testing.T, srv *mcp.Server, version string) *mcp.CallToolResult {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Run(t.Context(), &mcp.IOTransport{Reader: inR, Writer: outW}) }()
	defer func() { inW.Close(); <-done }()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	send := func(msg string) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if !lines.Scan() {
		t.Fatalf("%s: no initialize answer", version)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"kingfisher"}}}`)
	if !lines.Scan() {
		t.Fatalf("%s: no search answer", version)
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(lines.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		t.Fatalf("%s: %v: %s", version, err, lines.Bytes())
	}
	go io.Copy(io.Discard, outR)
	return &res
}
