package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/autorag/autorag/agentconf"
)

// parallelCLI runs autorag once per argument list, all at once.
func parallelCLI(t *testing.T, env []string, argv [][]string) []result {
	t.Helper()
	out := make([]result, len(argv))
	var wg sync.WaitGroup
	for i, args := range argv {
		wg.Go(func() { out[i] = cli(t, env, args...) })
	}
	wg.Wait()
	return out
}

// TestAgentsInstallConcurrentProcesses: ten processes install different
// autorag entries into one client's file at once, for every client:
// exactly one says installed, the nine others are refused as different
// (none says added while its entry is lost), and the other server in the
// file survives.
func TestAgentsInstallConcurrentProcesses(t *testing.T) {
	otherServer := map[string]string{
		"codex": "# mine\n[mcp_servers.other]\ncommand = \"npx\"\n",
	}
	for _, c := range agentconf.Clients {
		t.Run(c.Name, func(t *testing.T) {
			root := t.TempDir()
			codex := filepath.Join(t.TempDir(), "codex")
			path, _ := c.File(root)
			if c.Name == "codex" {
				path = filepath.Join(codex, "config.toml")
			}
			os.MkdirAll(filepath.Dir(path), 0o755)
			content := `{"keep": {"other": 1}}`
			if s, ok := otherServer[c.Name]; ok {
				content = s
			}
			os.WriteFile(path, []byte(content), 0o600)
			var argv [][]string
			for i := range 10 {
				argv = append(argv, []string{"--root", root, "--json", "agents", "--install", c.Name, "--workspace", fmt.Sprint("w", i)})
			}
			installed, refused := "", 0
			for _, r := range parallelCLI(t, []string{"CODEX_HOME=" + codex}, argv) {
				switch {
				case r.code == 0 && strings.Contains(r.stdout, `"installed"`):
					if installed != "" {
						t.Errorf("two processes installed: %s and %s", installed, r.stdout)
					}
					installed = r.stdout
				case r.code == exitUsage && strings.Contains(r.stdout+r.stderr, "different"):
					refused++
				default:
					t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
				}
			}
			if installed == "" || refused != 9 {
				t.Fatalf("installed %q, %d refused; want one and 9", installed, refused)
			}
			b, _ := os.ReadFile(path)
			if !strings.Contains(string(b), "autorag") || !strings.Contains(string(b), "other") {
				t.Errorf("the file lost an entry:\n%s", b)
			}
			if c.Name == "codex" && !strings.HasPrefix(string(b), content) {
				t.Errorf("codex file not appended to:\n%s", b)
			}
		})
	}
}

// TestWorkspaceAddConcurrentProcesses: ten `workspace add` at once all
// land in the file, and the user's comments survive.
func TestWorkspaceAddConcurrentProcesses(t *testing.T) {
	file := filepath.Join(t.TempDir(), "workspaces.toml")
	mine := "# my roots, by hand\n[roots.mine] # the first\npath = \"/srv/mine\" # keep\n"
	os.WriteFile(file, []byte(mine), 0o600)
	parent := t.TempDir()
	var argv [][]string
	for i := range 10 {
		dir := filepath.Join(parent, fmt.Sprint("r", i))
		os.MkdirAll(dir, 0o755)
		argv = append(argv, []string{"workspace", "add", dir})
	}
	for _, r := range parallelCLI(t, []string{"AUTORAG_WORKSPACES=" + file}, argv) {
		if r.code != 0 {
			t.Errorf("exit %d: %s", r.code, r.stderr)
		}
	}
	b, _ := os.ReadFile(file)
	var doc struct{ Roots map[string]any }
	if _, err := toml.Decode(string(b), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Roots) != 11 {
		t.Errorf("%d roots in the file, want 11:\n%s", len(doc.Roots), b)
	}
	if !strings.HasPrefix(string(b), mine) {
		t.Errorf("the user's lines were not kept:\n%s", b)
	}
}

// TestAgentsWritesInvokedPath: autorag run through a symbolic link
// (linkbin/autorag -> a versioned binary) writes the link's path into
// client configurations, not the versioned one it resolves to; found on
// PATH, the PATH entry's.
func TestAgentsWritesInvokedPath(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "linkbin")
	os.MkdirAll(bin, 0o755)
	link := filepath.Join(bin, "autorag")
	if err := os.Symlink(os.Args[0], link); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, tc := range []struct{ name, arg0, path string }{
		{"by path", link, os.Getenv("PATH")},
		{"on PATH", "autorag", bin + string(os.PathListSeparator) + os.Getenv("PATH")},
	} {
		cmd := exec.Command(link, "--root", root, "--json", "agents", "claude")
		cmd.Args[0] = tc.arg0 // what a shell passes: the name as typed
		cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1", "PATH="+tc.path)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got struct{ Command []string }
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if got.Command[0] != link {
			t.Errorf("%s: command %s, want the invoked %s", tc.name, got.Command[0], link)
		}
	}
}
