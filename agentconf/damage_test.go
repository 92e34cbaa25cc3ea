package agentconf

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	toml2 "github.com/pelletier/go-toml/v2"
)

// clientFile is client c's file for a project in a fresh directory (with
// CODEX_HOME there too), its directory made.
func clientFile(t *testing.T, c Client) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	t.Setenv("CODEX_HOME", filepath.Join(dir, ".codex"))
	path, _ = c.File(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// TestInstallThroughSymlink: a client file that is a link (dotfiles) stays
// a link, and its target gets the entry.
func TestInstallThroughSymlink(t *testing.T) {
	for _, c := range Clients {
		t.Run(c.Name, func(t *testing.T) {
			dir, path := clientFile(t, c)
			real := filepath.Join(t.TempDir(), "dotfiles", filepath.Base(path))
			os.MkdirAll(filepath.Dir(real), 0o755)
			os.WriteFile(real, []byte(existing[c.Name]), 0o600)
			if err := os.Symlink(real, path); err != nil {
				t.Fatal(err)
			}
			res, err := Install(context.Background(), c, dir, entry)
			if err != nil || res.Outcome != "installed" {
				t.Fatalf("install: %v %+v", err, res)
			}
			if fi, _ := os.Lstat(path); fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the link was replaced by a %v", fi.Mode())
			}
			b, _ := os.ReadFile(real)
			servers := decode(t, c.Name, b)[serversKey[c.Name]].(map[string]any)
			if servers["autorag"] == nil || servers["other"] == nil {
				t.Errorf("the link's target:\n%s", b)
			}
		})
	}
}

// TestInstallRespectsReadOnly: a 0444 file is refused, unchanged.
func TestInstallRespectsReadOnly(t *testing.T) {
	for _, c := range Clients {
		t.Run(c.Name, func(t *testing.T) {
			dir, path := clientFile(t, c)
			os.WriteFile(path, []byte(existing[c.Name]), 0o444)
			if _, err := Install(context.Background(), c, dir, entry); err == nil || !strings.Contains(err.Error(), "read-only") {
				t.Fatalf("install into a read-only file: %v", err)
			}
			if b, _ := os.ReadFile(path); string(b) != existing[c.Name] {
				t.Errorf("the file changed:\n%s", b)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o444 {
				t.Errorf("mode %v", fi.Mode().Perm())
			}
		})
	}
}

// TestInstallKeepsBigNumbers: numbers beyond float64's precision survive
// the JSON round trip digit for digit.
func TestInstallKeepsBigNumbers(t *testing.T) {
	for _, c := range Clients {
		if c.Name == "codex" {
			continue // TOML integers are 64-bit by the spec; the file is appended to as text
		}
		t.Run(c.Name, func(t *testing.T) {
			dir, path := clientFile(t, c)
			os.WriteFile(path, []byte(`{"big": 12345678901234567890, "frac": 0.1000000000000000055511151231257827}`), 0o600)
			if _, err := Install(context.Background(), c, dir, entry); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			for _, n := range []string{"12345678901234567890", "0.1000000000000000055511151231257827"} {
				if !strings.Contains(string(b), n) {
					t.Errorf("%s was mangled:\n%s", n, b)
				}
			}
		})
	}
}

// TestInstallIntoNullAndNonObjects: a file holding null is an empty
// configuration; one holding an array or a string is refused, unchanged.
func TestInstallIntoNullAndNonObjects(t *testing.T) {
	for _, c := range Clients {
		if c.Name == "codex" {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			dir, path := clientFile(t, c)
			os.WriteFile(path, []byte("null\n"), 0o600)
			if _, err := Install(context.Background(), c, dir, entry); err != nil {
				t.Fatalf("install into null: %v", err)
			}
			b, _ := os.ReadFile(path)
			if decode(t, c.Name, b)[serversKey[c.Name]].(map[string]any)["autorag"] == nil {
				t.Errorf("no entry:\n%s", b)
			}
			for _, bad := range []string{"[1, 2]", `"text"`, `{"a": 1} {"b": 2}`, `{"` + serversKey[c.Name] + `": null}`} {
				os.WriteFile(path, []byte(bad), 0o600)
				_, err := Install(context.Background(), c, dir, entry)
				after, _ := os.ReadFile(path)
				if bad == `{"`+serversKey[c.Name]+`": null}` {
					if err != nil {
						t.Errorf("%s: %v", bad, err)
					}
					continue
				}
				if err == nil || string(after) != bad {
					t.Errorf("%s: err %v, file now %s", bad, err, after)
				}
			}
		})
	}
}

// TestCodexResultParsesStrictly: the appended file must parse with a
// strict TOML parser (Codex's, Python's tomllib); an inline mcp_servers
// table is refused rather than made invalid.
func TestCodexResultParsesStrictly(t *testing.T) {
	c, _ := Lookup("codex")
	dir, path := clientFile(t, c)
	inline := "model = \"o3\"\nmcp_servers = { other = { command = \"npx\" } }\n"
	os.WriteFile(path, []byte(inline), 0o600)
	if _, err := Install(context.Background(), c, dir, entry); err == nil || !strings.Contains(err.Error(), "by hand") {
		t.Errorf("inline mcp_servers: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != inline {
		t.Errorf("the file changed:\n%s", b)
	}
	for _, content := range []string{existing["codex"], "", "[mcp_servers]\n", "[mcp_servers.other]\ncommand = \"x\"\n[mcp_servers.other.env]\nA = \"1\"\n"} {
		os.WriteFile(path, []byte(content), 0o600)
		if _, err := Install(context.Background(), c, dir, entry); err != nil {
			t.Fatalf("%q: %v", content, err)
		}
		b, _ := os.ReadFile(path)
		var doc map[string]any
		if err := toml2.Unmarshal(b, &doc); err != nil {
			t.Errorf("a strict parser rejects the result of %q: %v\n%s", content, err, b)
		}
	}
}

// TestInstallConcurrentDifferentEntries: installers at once with
// different entries: exactly one installs, the others are refused as
// different, and the one entry there is the winner's.
func TestInstallConcurrentDifferentEntries(t *testing.T) {
	for _, c := range Clients {
		t.Run(c.Name, func(t *testing.T) {
			dir, path := clientFile(t, c)
			os.WriteFile(path, []byte(existing[c.Name]), 0o600)
			var wg sync.WaitGroup
			var mu sync.Mutex
			var won []Entry
			refused := 0
			for i := range 10 {
				e := entry
				e.Args = []string{"mcp", "--root", filepath.Join("/p", string(rune('a'+i)))}
				wg.Go(func() {
					res, err := Install(context.Background(), c, dir, e)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil && res.Outcome == "installed":
						won = append(won, e)
					case err != nil && strings.Contains(err.Error(), "different"):
						refused++
					default:
						t.Errorf("install: %+v %v", res, err)
					}
				})
			}
			wg.Wait()
			if len(won) != 1 || refused != 9 {
				t.Fatalf("%d installed, %d refused; want 1 and 9", len(won), refused)
			}
			b, _ := os.ReadFile(path)
			got := decode(t, c.Name, b)[serversKey[c.Name]].(map[string]any)
			if !strings.Contains(compact(got["autorag"]), won[0].Args[2]) || got["other"] == nil {
				t.Errorf("the file holds %s, want the winner's %v", compact(got), won[0].Args)
			}
		})
	}
}
