package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
)

// The smallest model of the catalog, installed by `make models`.
const smallModel = "all-minilm-l6-v2-q"

// TestIndexKeepsItsEmbedder is the newcomer's path with a transformer
// (issue 35), through real processes and with no setting after the one
// explicit choice: `refresh --embedder transformer` builds the index; a
// plain query answers with the model (a query sharing no word with its
// best file finds it), status says the sources are unchanged and names
// the embedder, a plain refresh is unchanged, a plain watch updates an
// edit with the same embedder, and an MCP server over this root and one
// built with the built-in embedder answers from both, each root's status
// naming its embedder.
func TestIndexKeepsItsEmbedder(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "keys.md", "# Signing keys\nRotate the signing keys every ninety days, and at once after a leak.\n")
	writeFile(t, root, "pasta.md", "# Dinner\nBoil the spaghetti in salted water for nine minutes.\n")
	r := cli(t, nil, "--root", root, "refresh", "--embedder", "transformer", "--model", smallModel)
	if r.code != 0 {
		t.Fatalf("refresh --embedder transformer: exit %d\n%s\n(the model comes from `make models`)", r.code, r.stderr)
	}
	r = cli(t, nil, "--root", root, "query", "--json", "--mode", "vector", "-k", "1", "how do I cook noodles")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("plain query: exit %d, stderr %q", r.code, r.stderr)
	}
	if res := r.json(t)["results"].([]any); len(res) != 1 || res[0].(map[string]any)["path"] != "pasta.md" {
		t.Fatalf("vector query for noodles answered %v, want pasta.md (the model's answer)", res)
	}
	r = mustOK(t, "--root", root, "status")
	if !strings.Contains(r.stdout, "sources:     unchanged") || !strings.Contains(r.stdout, "embedder:    transformer/"+smallModel) {
		t.Fatalf("plain status:\n%s\nwant sources unchanged and the transformer embedder", r.stdout)
	}
	if strings.Contains(r.stdout, "note:") || strings.Contains(r.stdout, "settings:") {
		t.Fatalf("plain status notes a setting that nobody set:\n%s", r.stdout)
	}
	if out := refreshJSON(t, root)["outcome"]; out != "unchanged" {
		t.Fatalf("plain refresh: %v, want unchanged (the index keeps its embedder)", out)
	}
	w := startWatch(t, root, nil, "--debounce", "100ms")
	w.waitTick("the start tick", func(m map[string]any) bool { return trigger(m) == "start" })
	writeFile(t, root, "keys.md", "# Signing keys\nRotate the signing keys every ninety days; revoke a leaked one at once.\n")
	tick := w.waitTick("the edit's tick", func(m map[string]any) bool { return trigger(m) == "event" && outcome(m) != "unchanged" })
	if code := w.stop(); code != 0 || outcome(tick) != "updated" {
		t.Fatalf("plain watch: tick %v, exit %d; want updated (not rebuilt with another embedder)", tick, code)
	}
	if r = mustOK(t, "--root", root, "status"); !strings.Contains(r.stdout, "embedder:    transformer/"+smallModel) {
		t.Fatalf("status after watch:\n%s", r.stdout)
	}

	other := t.TempDir()
	writeFile(t, other, "cache.md", "# Cache\nThe cache evicts the least recently used entry when it is full.\n")
	refreshJSON(t, other)
	var ans agentapi.SearchAnswer
	var st agentapi.StatusAnswer
	mcpCalls(t, []string{"--root", root, "--root", other},
		mcpCall{"search", map[string]any{"query": "least recently used entry", "k": 3}, &ans},
		mcpCall{"status", map[string]any{}, &st})
	for _, ra := range ans.Roots {
		if !ra.OK || ra.Error != nil {
			t.Fatalf("mcp over two roots: root %s failed: %+v", ra.Root, ra.Error)
		}
	}
	if len(ans.Roots) != 2 || len(ans.Results) == 0 || !strings.HasSuffix(ans.Results[0].Path, "cache.md") {
		t.Fatalf("mcp over two roots answered %+v", ans)
	}
	embedders := map[string]string{}
	for _, rs := range st.Roots {
		embedders[rs.Path] = shortEmbedder(rs.Embedder)
	}
	if embedders[root] != "transformer/"+smallModel || embedders[other] != "local" {
		t.Fatalf("mcp status over two roots: embedders %v", embedders)
	}
}

// TestChosenEmbedderSwitchesAndNotes: a chosen embedder that differs from
// the index's is a note for readers, never a failure (once per
// generation for query), and a refresh with it switches, saying what it
// costs; the built-in default never switches an index.
func TestChosenEmbedderSwitchesAndNotes(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "pasta.md", "# Dinner\nBoil the spaghetti in salted water for nine minutes.\n")
	if r := cli(t, nil, "--root", root, "refresh", "--embedder", "transformer", "--model", smallModel); r.code != 0 {
		t.Fatalf("refresh: exit %d\n%s", r.code, r.stderr)
	}
	local := []string{"AUTORAG_EMBEDDER=local"}
	r := cli(t, local, "--root", root, "query", "spaghetti")
	if r.code != 0 || !strings.Contains(r.stderr, `note: AUTORAG_EMBEDDER="local" asks for embedder local, but the index was built with transformer/`+smallModel) ||
		!strings.Contains(r.stderr, "`autorag refresh` switches it (1 chunk to embed)") {
		t.Fatalf("query with another embedder set: exit %d, stderr %q; want 0 and the note", r.code, r.stderr)
	}
	if r = cli(t, local, "--root", root, "query", "spaghetti"); r.code != 0 || r.stderr != "" {
		t.Fatalf("second query: exit %d, stderr %q; want the note only once", r.code, r.stderr)
	}
	r = cli(t, local, "--root", root, "status")
	if r.code != 0 || !strings.Contains(r.stdout, "sources:     unchanged") || !strings.Contains(r.stdout, "note:        AUTORAG_EMBEDDER=") {
		t.Fatalf("status with another embedder set: exit %d\n%s", r.code, r.stdout)
	}
	r = cli(t, nil, "--root", root, "refresh", "--embedder", "transformer", "--model", "bge-small-en-v1.5-q")
	if r.code != 0 || !strings.Contains(r.stderr, "switching embedder transformer/"+smallModel+" → transformer/bge-small-en-v1.5-q: 1 chunk to embed, ≈ ") {
		t.Fatalf("switching refresh: exit %d, stderr %q", r.code, r.stderr)
	}
	r = cli(t, local, "--root", root, "refresh", "--json")
	if r.code != 0 || r.json(t)["outcome"] != "rebuilt" || !strings.Contains(r.stderr, "switching embedder transformer/bge-small-en-v1.5-q → local: 1 chunk to embed") {
		t.Fatalf("refresh with AUTORAG_EMBEDDER=local: exit %d, stdout %s, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r = mustOK(t, "--root", root, "status"); !strings.Contains(r.stdout, "embedder:    local\n") {
		t.Fatalf("status after switching to local:\n%s", r.stdout)
	}
}

// mcpCall is one tool call and where its structured answer goes.
type mcpCall struct {
	tool string
	args map[string]any
	out  any
}

// mcpCalls runs `autorag mcp` with args and makes the calls in order.
func mcpCalls(t *testing.T, args []string, calls ...mcpCall) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append(args, "mcp")...)
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, c := range calls {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", c.tool, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, c.out); err != nil {
			t.Fatal(err)
		}
	}
}

// parseRecorded reads back the settings that build a recorded embedder,
// including models whose names or prefixes hold slashes.
func TestParseRecorded(t *testing.T) {
	for _, c := range []struct {
		id   string
		want recordedSetting
		ok   bool
	}{
		{"local/potion-base-8M@bf8b0566-q8-v4+index14/256", recordedSetting{embedder: "local"}, true},
		{"none", recordedSetting{embedder: "none"}, true},
		{"transformer/e5-small-v2-q@main+sha256:3b42+mean+512+v2+prefix:\"query: \"/\"passage: \"+index14/384",
			recordedSetting{embedder: "transformer", model: "e5-small-v2-q"}, true},
		{"openai/BAAI/bge-m3+index14/1024", recordedSetting{embedder: "openai", model: "BAAI/bge-m3"}, true},
		{"openai/nomic-embed-text@max-tokens=512+index14/16", recordedSetting{embedder: "openai", model: "nomic-embed-text", maxTokens: 512}, true},
		{"martian/x/1", recordedSetting{}, false},
		{"garbage", recordedSetting{}, false},
	} {
		got, ok := parseRecorded(c.id)
		if got != c.want || ok != c.ok {
			t.Errorf("parseRecorded(%q) = %+v %v, want %+v %v", c.id, got, ok, c.want, c.ok)
		}
	}
}
