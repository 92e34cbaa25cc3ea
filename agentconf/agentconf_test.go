package agentconf

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
)

var entry = Entry{Name: "autorag", Command: "/usr/local/bin/autorag", Args: []string{"mcp", "--root", "/home/ada/proj"}}

// existing is a file each client might already have, with another server
// and settings of its own that must survive.
var existing = map[string]string{
	"claude":   `{"mcpServers": {"other": {"type": "stdio", "command": "npx", "args": ["x"]}}}`,
	"cursor":   `{"mcpServers": {"other": {"command": "npx", "args": ["x"]}}}`,
	"vscode":   `{"inputs": [], "servers": {"other": {"type": "stdio", "command": "npx"}}}`,
	"gemini":   `{"theme": "Default", "mcpServers": {"other": {"command": "npx"}}}`,
	"opencode": `{"$schema": "https://opencode.ai/config.json", "mcp": {"other": {"type": "local", "command": ["npx", "x"]}}}`,
	"codex":    "# my settings\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"npx\"\nargs = [\"x\"]\n",
}

// wantEntry is the entry as each client's documented format holds it.
var wantEntry = map[string]any{
	"claude":   map[string]any{"type": "stdio", "command": entry.Command, "args": []any{"mcp", "--root", "/home/ada/proj"}},
	"cursor":   map[string]any{"command": entry.Command, "args": []any{"mcp", "--root", "/home/ada/proj"}},
	"vscode":   map[string]any{"type": "stdio", "command": entry.Command, "args": []any{"mcp", "--root", "/home/ada/proj"}},
	"gemini":   map[string]any{"command": entry.Command, "args": []any{"mcp", "--root", "/home/ada/proj"}},
	"opencode": map[string]any{"type": "local", "command": []any{entry.Command, "mcp", "--root", "/home/ada/proj"}, "enabled": true},
	"codex":    map[string]any{"command": entry.Command, "args": []any{"mcp", "--root", "/home/ada/proj"}},
}

var serversKey = map[string]string{"claude": "mcpServers", "cursor": "mcpServers", "vscode": "servers", "gemini": "mcpServers", "opencode": "mcp", "codex": "mcp_servers"}

func decode(t *testing.T, client string, b []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	var err error
	if client == "codex" {
		_, err = toml.Decode(string(b), &doc)
	} else {
		err = json.Unmarshal(b, &doc)
	}
	if err != nil {
		t.Fatalf("%s: the written file does not parse: %v\n%s", client, err, b)
	}
	return doc
}

// TestInstallEachClient: for every client, into an existing file and a
// new one: the entry in its format, the rest kept, a backup, a second
// install a no-op, a different entry refused with the file untouched.
func TestInstallEachClient(t *testing.T) {
	for _, c := range Clients {
		t.Run(c.Name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("CODEX_HOME", filepath.Join(dir, ".codex"))
			path, _ := c.File(dir)
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(existing[c.Name]), 0o600); err != nil {
				t.Fatal(err)
			}
			res, err := Install(context.Background(), c, dir, entry)
			if err != nil || res.Outcome != "installed" || res.Backup != path+".bak" {
				t.Fatalf("install: %v %+v", err, res)
			}
			if b, _ := os.ReadFile(res.Backup); string(b) != existing[c.Name] {
				t.Errorf("backup holds %q", b)
			}
			b, _ := os.ReadFile(path)
			doc := decode(t, c.Name, b)
			servers := doc[serversKey[c.Name]].(map[string]any)
			if d := cmp.Diff(wantEntry[c.Name], servers["autorag"]); d != "" {
				t.Errorf("entry (-want +got):\n%s", d)
			}
			if servers["other"] == nil {
				t.Errorf("the other server was lost:\n%s", b)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want the file's 0600", fi.Mode().Perm())
			}
			if c.Name == "codex" && !strings.HasPrefix(string(b), existing["codex"]) {
				t.Errorf("codex file not appended to as text:\n%s", b)
			}
			if again, err := Install(context.Background(), c, dir, entry); err != nil || again.Outcome != "unchanged" || again.Backup != "" {
				t.Errorf("second install: %v %+v", err, again)
			}
			other := entry
			other.Args = []string{"mcp", "--root", "/elsewhere"}
			if _, err := Install(context.Background(), c, dir, other); err == nil || !strings.Contains(err.Error(), "different") {
				t.Errorf("a different entry: %v", err)
			}
			if after, _ := os.ReadFile(path); string(after) != string(b) {
				t.Errorf("the refused install changed the file")
			}
			// A new file.
			fresh := t.TempDir()
			t.Setenv("CODEX_HOME", filepath.Join(fresh, ".codex"))
			res, err = Install(context.Background(), c, fresh, entry)
			if err != nil || res.Outcome != "installed" || res.Backup != "" {
				t.Fatalf("install into nothing: %v %+v", err, res)
			}
			b, _ = os.ReadFile(res.File)
			if d := cmp.Diff(wantEntry[c.Name], decode(t, c.Name, b)[serversKey[c.Name]].(map[string]any)["autorag"]); d != "" {
				t.Errorf("new file's entry (-want +got):\n%s", d)
			}
		})
	}
}

func TestInstallRefusesWhatItCannotParse(t *testing.T) {
	dir := t.TempDir()
	c, _ := Lookup("vscode")
	path, _ := c.File(dir)
	os.MkdirAll(filepath.Dir(path), 0o755)
	jsonc := "{\n  // my servers\n  \"servers\": {}\n}\n"
	os.WriteFile(path, []byte(jsonc), 0o644)
	if _, err := Install(context.Background(), c, dir, entry); err == nil || !strings.Contains(err.Error(), "by hand") {
		t.Errorf("JSON with comments: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != jsonc {
		t.Error("the file was changed")
	}
	if _, err := Lookup("emacs"); err == nil || !strings.Contains(err.Error(), "opencode") {
		t.Errorf("unknown client: %v", err)
	}
}
