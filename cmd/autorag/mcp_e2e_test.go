package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
)

// TestMCPWithTypeScriptClient runs the TypeScript MCP SDK's client
// (testdata/mcpclient, installed by `npm ci`) against `autorag mcp` over
// stdio: the client launches the server, lists the tools, searches,
// refreshes and reads, and what it saw must match the CLI.
func TestMCPWithTypeScriptClient(t *testing.T) {
	node, dir := nodeClient(t)
	root := copyCorpus(t)
	refreshJSON(t, root)
	const query = "retry with exponential backoff"
	var got struct {
		Tools []struct {
			Name   string   `json:"name"`
			Input  []string `json:"input"`
			Output bool     `json:"output"`
		} `json:"tools"`
		Snippets     agentapi.SearchAnswer `json:"snippets"`
		SnippetsText []string              `json:"snippetsText"`
		Search       envelope.Query        `json:"search"`
		Refresh      envelope.Refresh      `json:"refresh"`
		Read         agentapi.ReadResult   `json:"read"`
		Refused      struct {
			IsError bool   `json:"isError"`
			Text    string `json:"text"`
		} `json:"refused"`
		Status envelope.Status `json:"status"`
	}
	runNodeClient(t, node, dir, &got, "client.mjs", query, os.Args[0], "mcp", "--root", root)
	var names []string
	for _, tool := range got.Tools {
		names = append(names, tool.Name)
		if !tool.Output || len(tool.Input) == 0 && tool.Name != "status" {
			t.Errorf("tool %+v: no output schema or no input properties", tool)
		}
	}
	if d := cmp.Diff([]string{"read", "refresh", "search", "status"}, names); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	var cli envelope.Query
	if err := json.Unmarshal([]byte(mustOK(t, "--root", root, "query", "--json", "-k", "3", query).stdout), &cli); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(cli.Results, got.Search.Results); d != "" || got.Search.Generation != cli.Generation || len(cli.Results) == 0 {
		t.Errorf("MCP search differs from `autorag query --json` (generation %s vs %s; -cli +mcp):\n%s", got.Search.Generation, cli.Generation, d)
	}
	checkSnippets(t, cli.Results, got.Snippets, got.SnippetsText)
	if got.Search.Stale == nil || *got.Search.Stale {
		t.Errorf("stale = %v on a fresh index", got.Search.Stale)
	}
	if !got.Refresh.OK || got.Refresh.Outcome != "unchanged" || got.Refresh.Generation != cli.Generation {
		t.Errorf("refresh = %+v", got.Refresh)
	}
	top := cli.Results[0]
	firstLine := strings.SplitN(strings.TrimSpace(top.Text), "\n", 2)[0]
	if got.Read.Path != top.Path || got.Read.Lines != top.Lines || !strings.Contains(got.Read.Text, firstLine) {
		t.Errorf("read %+v, want lines %v of %s holding %q", got.Read, top.Lines, top.Path, firstLine)
	}
	if !got.Refused.IsError || !strings.HasPrefix(got.Refused.Text, "refused: ") {
		t.Errorf("read ../outside.md: %+v", got.Refused)
	}
	if !got.Status.OK || got.Status.Status == nil || got.Status.Generation != cli.Generation {
		t.Errorf("status = %+v", got.Status)
	}
}

// checkSnippets checks a default MCP search answer against the CLI's
// whole passages: the same results, each passage cut to lines of its own
// (at least one trimmed here), and as text only the citations.
func checkSnippets(t *testing.T, whole []engine.Result, got agentapi.SearchAnswer, text []string) {
	t.Helper()
	if len(got.Results) != len(whole) {
		t.Fatalf("snippets: %d results, the CLI %d", len(got.Results), len(whole))
	}
	trimmed := 0
	for i, h := range got.Results {
		w := whole[i]
		if h.Path != w.Path || h.Lines != w.Lines || h.Score != w.Score {
			t.Errorf("snippet %d is %s:%v (%v), the CLI's %s:%v (%v)", i, h.Path, h.Lines, h.Score, w.Path, w.Lines, w.Score)
		}
		if !h.Trimmed {
			if h.Text != w.Text {
				t.Errorf("snippet %d untrimmed but not the whole passage: %q", i, h.Text)
			}
			continue
		}
		trimmed++
		if len(h.Text) >= len(w.Text) || len(h.ShownLines) == 0 || h.ShownLines[0][0] < w.Lines[0] || h.ShownLines[len(h.ShownLines)-1][1] > w.Lines[1] {
			t.Errorf("snippet %d: shown %v of %v, %d bytes of %d", i, h.ShownLines, w.Lines, len(h.Text), len(w.Text))
		}
	}
	if trimmed == 0 {
		t.Error("no passage was cut to a snippet")
	}
	if len(text) != 1 || !strings.HasPrefix(text[0], fmt.Sprintf("%d results for ", len(whole))) || !strings.Contains(text[0], whole[0].Path) {
		t.Errorf("text content of a default search: %q", text)
	}
}

// nodeClient finds node and the TypeScript client's directory (with the
// SDK installed by `npm ci`).
func nodeClient(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not installed (%v): the TypeScript client cannot run", err)
	}
	dir, err = filepath.Abs(filepath.Join("..", "..", "testdata", "mcpclient"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Fatalf("the TypeScript SDK is not installed: run `npm ci` in %s (bash .ci/run does): %v", dir, err)
	}
	return node, dir
}

// runNodeClient runs script (in testdata/mcpclient, with node from
// nodeClient) with args, this test binary standing in for autorag, and
// decodes the JSON it prints into out. Any failure, or output that is not
// that JSON, fails the test with the client's stdout and stderr.
func runNodeClient(t *testing.T, node, dir string, out any, script string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node client: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("client output %q: %v", stdout.String(), err)
	}
}
