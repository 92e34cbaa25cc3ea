package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// userEdit is one command that edits a file the user owns, set up fresh
// for each case in a directory of its own.
type userEdit struct {
	name   string
	toml   bool                      // the file is TOML (else JSON)
	remove bool                      // the edit takes something out
	setup  func(dir string) editCase // makes the directories the edit needs
}

// editCase is one edit's file, environment and commands.
type editCase struct {
	file string
	env  []string
	args func(i int) []string // writer i's command (0 for a single run)
	mark func(i int) string   // text writer i's edit adds (or, removing, takes out)
	base string               // the user's own content, with comments and another entry
	keep string               // a line of base that every edit must keep
	race raceRule
}

// raceRule says what 10 concurrent writers must leave.
type raceRule int

const (
	allLand  raceRule = iota // every writer's edit is in the file
	firstWin                 // one writer wins, the others are refused as different
)

// userEdits are every user-file edit autorag makes: workspace add and
// remove, agents --install for each client.
func userEdits() []userEdit {
	edits := []userEdit{
		{name: "workspace add", toml: true, setup: workspaceAdd},
		{name: "workspace remove", toml: true, remove: true, setup: workspaceRemove},
	}
	for _, c := range []string{"claude", "codex", "cursor", "vscode", "gemini", "opencode"} {
		edits = append(edits, userEdit{name: "agents --install " + c, toml: c == "codex", setup: agentsInstall(c)})
	}
	return edits
}

func workspaceAdd(dir string) editCase {
	file := filepath.Join(dir, "cfg", "workspaces.toml")
	roots := make([]string, 10)
	for i := range roots {
		roots[i] = filepath.Join(dir, fmt.Sprint("root", i))
		_ = os.MkdirAll(roots[i], 0o755)
	}
	return editCase{file: file, env: []string{"AUTORAG_WORKSPACES=" + file},
		args: func(i int) []string { return []string{"workspace", "add", roots[i]} },
		mark: func(i int) string { return roots[i] + `"` },
		base: "# my roots, by hand\n[roots.mine] # the first\npath = \"/srv/mine\" # keep\n", keep: "# my roots, by hand",
		race: allLand}
}

func workspaceRemove(dir string) editCase {
	file := filepath.Join(dir, "cfg", "workspaces.toml")
	base := "# my roots, by hand\n[roots.mine] # the first\npath = \"/srv/mine\" # keep\n"
	for i := range 10 {
		base += fmt.Sprintf("\n# gone %d\n[roots.gone%d]\npath = \"/srv/gone%d\"\n", i, i, i)
	}
	return editCase{file: file, env: []string{"AUTORAG_WORKSPACES=" + file},
		args: func(i int) []string { return []string{"workspace", "remove", fmt.Sprint("gone", i)} },
		mark: func(i int) string { return fmt.Sprintf("[roots.gone%d]", i) },
		base: base, keep: "# my roots, by hand", race: allLand}
}

func agentsInstall(client string) func(string) editCase {
	return func(dir string) editCase {
		root, codex := filepath.Join(dir, "proj"), filepath.Join(dir, "codexhome")
		_ = os.MkdirAll(root, 0o755)
		file := map[string]string{"claude": ".mcp.json", "cursor": ".cursor/mcp.json", "vscode": ".vscode/mcp.json",
			"gemini": ".gemini/settings.json", "opencode": "opencode.json"}[client]
		c := editCase{file: filepath.Join(root, file), env: []string{"CODEX_HOME=" + codex},
			args: func(i int) []string {
				return []string{"--root", root, "agents", "--install", client, "--workspace", fmt.Sprint("w", i)}
			},
			mark: func(i int) string { return fmt.Sprintf(`"w%d"`, i) },
			base: `{"keep": {"other": {"command": "npx"}}}`, keep: `"other"`, race: firstWin}
		if client == "codex" {
			c.file = filepath.Join(codex, "config.toml")
			c.base, c.keep = "# my settings\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"npx\"\n", "# my settings"
		}
		return c
	}
}

// userFiles runs every user-file edit against every way its file can be
// damaged or contended, the 10 concurrent writers races times.
func (h *harness) userFiles(races int) outcome {
	o := outcome{Scenario: "user-file edits (workspace add, workspace remove, agents --install × 6 clients) × (symlink, read-only, comments, big numbers, null, strict-parser round trip, 10 concurrent writers)"}
	cases := []struct {
		name string
		f    func(*harness, userEdit, editCase) error
	}{{"symlink", (*harness).editSymlink}, {"read-only", (*harness).editReadOnly}, {"comments", (*harness).editComments},
		{"big numbers", (*harness).editBigNumbers}, {"null", (*harness).editNull}, {"strict parser", (*harness).editStrict},
		{"10 concurrent writers", (*harness).editRace}}
	for range races - 1 {
		cases = append(cases, cases[len(cases)-1])
	}
	n := 0
	for _, e := range userEdits() {
		for _, c := range cases {
			n++
			dir := filepath.Join(h.work, fmt.Sprint("userfile-", n))
			ec := e.setup(dir)
			if err := os.MkdirAll(filepath.Dir(ec.file), 0o755); err != nil {
				o.fail("%s: %v", e.name, err)
				continue
			}
			err := c.f(h, e, ec)
			if err == errNotApplicable {
				continue
			}
			o.Trials++
			if err != nil {
				o.fail("%s × %s: %v", e.name, c.name, err)
			}
			_ = os.RemoveAll(dir)
		}
	}
	return o
}

// errNotApplicable marks a case that does not apply to an edit (a
// workspace file holds no numbers).
var errNotApplicable = fmt.Errorf("not applicable")

// applied says whether writer i's edit is in content.
func (ec editCase) applied(e userEdit, content string, i int) bool {
	return strings.Contains(content, ec.mark(i)) != e.remove
}

// runEdit runs writer 0 over content written first; it returns the file's
// content after.
func (h *harness) runEdit(ec editCase, content string) (result, string, error) {
	if err := os.WriteFile(ec.file, []byte(content), 0o600); err != nil {
		return result{}, "", err
	}
	r := h.cli.run(ec.env, ec.args(0)...)
	b, err := os.ReadFile(ec.file)
	return r, string(b), err
}

// concurrent runs the 10 writers at once.
func (h *harness) concurrent(ec editCase) []result {
	out := make([]result, 10)
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() { out[i] = h.cli.run(ec.env, ec.args(i)...) })
	}
	wg.Wait()
	return out
}
