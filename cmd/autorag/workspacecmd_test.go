package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/autorag/autorag/agentapi"
)

// TestWorkspaceServe: roots added to the workspace file are served
// together by `serve --workspace all`, each result naming its root.
func TestWorkspaceServe(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	parent := t.TempDir()
	a, b := filepath.Join(parent, "alpha"), filepath.Join(parent, "beta")
	writeFile(t, a, "heron.md", "# Herons\n\nThe heron fishes at dawn.\n")
	writeFile(t, b, "boat.md", "# Boats\n\nA heron rides the boat.\n")
	refreshJSON(t, a)
	refreshJSON(t, b)
	mustOK(t, "workspace", "add", a)
	mustOK(t, "workspace", "add", b, "--name", "bee", "--no-watch", "--poll", "5s")
	if r := cli(t, nil, "workspace", "add", b, "--name", "again"); r.code != exitUsage {
		t.Errorf("adding a root twice: exit %d", r.code)
	}
	list := mustOK(t, "--json", "workspace", "list").json(t)
	if roots := list["roots"].([]any); len(roots) != 2 || roots[1].(map[string]any)["name"] != "bee" {
		t.Fatalf("list: %v", list)
	}
	s := startServer(t, "serve", "--workspace", "all", "--addr", "127.0.0.1:0", "--watch")
	var got agentapi.SearchAnswer
	if code := getJSON(t, http.DefaultClient, s.base+"/v1/search?"+url.Values{"q": {"heron"}}.Encode(), &got); code != 200 {
		t.Fatalf("search: %d %+v", code, got)
	}
	roots := map[string]bool{}
	for _, h := range got.Results {
		roots[h.Root] = true
	}
	if !roots["alpha"] || !roots["bee"] || len(got.Roots) != 2 {
		t.Errorf("search of the workspace: %+v", got)
	}
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit %d", code)
	}
	mustOK(t, "workspace", "remove", "bee")
	if r := cli(t, nil, "workspace", "remove", "bee"); r.code != exitUsage {
		t.Errorf("removing a missing root: exit %d", r.code)
	}
	if r := cli(t, nil, "serve", "--workspace", "bee"); r.code != exitUsage || !strings.Contains(r.stderr, "alpha") {
		t.Errorf("serving an unknown root: exit %d, %s", r.code, r.stderr)
	}
	if r := cli(t, nil, "--root", a, "--root", b, "status"); r.code != exitUsage {
		t.Errorf("status with two roots: exit %d", r.code)
	}
}

// TestAgentsCommand: agents prints every client's configuration, and
// --install writes, keeps and refuses as it says.
func TestAgentsCommand(t *testing.T) {
	root := t.TempDir()
	t.Setenv("CODEX_HOME", filepath.Join(t.TempDir(), "codex"))
	var all struct {
		Command []string `json:"command"`
		Clients []struct {
			Client, File, Config string
		} `json:"clients"`
	}
	if err := json.Unmarshal([]byte(mustOK(t, "--root", root, "--json", "agents").stdout), &all); err != nil {
		t.Fatal(err)
	}
	if len(all.Clients) != 6 || strings.Join(all.Command[1:], " ") != "mcp --root "+root {
		t.Fatalf("agents: %+v", all)
	}
	text := mustOK(t, "--root", root, "agents", "codex", "opencode").stdout
	if !strings.Contains(text, "[mcp_servers.autorag]") || !strings.Contains(text, `"type": "local"`) || strings.Contains(text, "mcpServers") {
		t.Errorf("agents codex opencode:\n%s", text)
	}
	res := mustOK(t, "--root", root, "--json", "agents", "--install", "claude").json(t)
	if res["outcome"] != "installed" || res["file"] != filepath.Join(root, ".mcp.json") {
		t.Fatalf("install claude: %v", res)
	}
	if again := mustOK(t, "--root", root, "--json", "agents", "--install", "claude").json(t); again["outcome"] != "unchanged" {
		t.Errorf("second install: %v", again)
	}
	if r := cli(t, nil, "--root", root, "agents", "--install", "claude", "--watch"); r.code != exitUsage || !strings.Contains(r.stderr, "different") {
		t.Errorf("a different entry: exit %d, %s", r.code, r.stderr)
	}
	if r := cli(t, nil, "--root", root, "agents", "--install", "emacs"); r.code != exitUsage {
		t.Errorf("unknown client: exit %d", r.code)
	}
	if _, err := os.Stat(filepath.Join(root, ".mcp.json.bak")); !os.IsNotExist(err) {
		t.Errorf("a backup of a file that did not exist: %v", err)
	}
}

// TestDefaultRootCwd: --default-root cwd picks the root holding the
// working directory, the deepest when roots nest, and every root when
// none holds it.
func TestDefaultRootCwd(t *testing.T) {
	parent := t.TempDir()
	outer, inner := filepath.Join(parent, "outer"), filepath.Join(parent, "outer", "inner")
	writeFile(t, inner, "sub/a.md", "# A\n")
	var roots []serverRoot
	for name, dir := range map[string]string{"outer": outer, "inner": inner} {
		e, err := (&globals{}).engineAt(dir)
		if err != nil {
			t.Fatal(err)
		}
		roots = append(roots, serverRoot{name: name, e: e})
	}
	for wd, want := range map[string]string{filepath.Join(inner, "sub"): "inner", outer: "outer", parent: ""} {
		t.Chdir(wd)
		if got, err := defaultRoot("cwd", roots); err != nil || got != want {
			t.Errorf("in %s: %q %v, want %q", wd, got, err, want)
		}
	}
	if got, _ := defaultRoot("outer", roots); got != "outer" {
		t.Errorf("a name: %q", got)
	}
}
