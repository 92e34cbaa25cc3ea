package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// editSymlink: the file is a link into a dotfiles directory: the edit
// lands in the target and the link stays a link.
func (h *harness) editSymlink(e userEdit, ec editCase) error {
	real := filepath.Join(filepath.Dir(ec.file), "dotfiles", filepath.Base(ec.file))
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(real, []byte(ec.base), 0o600); err != nil {
		return err
	}
	if err := os.Symlink(real, ec.file); err != nil {
		return err
	}
	r := h.cli.run(ec.env, ec.args(0)...)
	if r.code != 0 {
		return fmt.Errorf("through a link: %s", r)
	}
	if fi, err := os.Lstat(ec.file); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return fmt.Errorf("the link was replaced (%v)", err)
	}
	b, _ := os.ReadFile(real)
	if !ec.applied(e, string(b), 0) || !strings.Contains(string(b), ec.keep) {
		return fmt.Errorf("the link's target: %.300q", b)
	}
	return nil
}

// editReadOnly: a 0444 file is refused with a message and left as it is.
func (h *harness) editReadOnly(e userEdit, ec editCase) error {
	if err := os.WriteFile(ec.file, []byte(ec.base), 0o444); err != nil {
		return err
	}
	r := h.cli.run(ec.env, ec.args(0)...)
	b, _ := os.ReadFile(ec.file)
	fi, _ := os.Stat(ec.file)
	switch {
	case r.code == 0 || !strings.Contains(r.stdout+r.stderr, "read-only"):
		return fmt.Errorf("a read-only file: %s", r)
	case string(b) != ec.base || fi.Mode().Perm() != 0o444:
		return fmt.Errorf("the read-only file changed (mode %v): %.300q", fi.Mode().Perm(), b)
	}
	return nil
}

// editComments: TOML comments survive the edit; a JSON file with comments
// (JSONC) is refused unchanged rather than stripped.
func (h *harness) editComments(e userEdit, ec editCase) error {
	if !e.toml {
		jsonc := "{\n  // mine\n  \"keep\": 1\n}\n"
		r, after, err := h.runEdit(ec, jsonc)
		if err != nil || r.code == 0 || after != jsonc {
			return fmt.Errorf("JSON with comments: %s, file now %.300q (%v)", r, after, err)
		}
		return nil
	}
	r, after, err := h.runEdit(ec, ec.base)
	if err != nil || r.code != 0 {
		return fmt.Errorf("%s (%v)", r, err)
	}
	for _, l := range strings.Split(ec.base, "\n") {
		if i := strings.Index(l, "#"); i >= 0 && !strings.Contains(after, l[i:]) {
			return fmt.Errorf("comment %q lost: %.400q", l[i:], after)
		}
	}
	if !ec.applied(e, after, 0) {
		return fmt.Errorf("not applied: %.300q", after)
	}
	return nil
}

// editBigNumbers: numbers past float64's precision are kept digit for
// digit (JSON; in Codex's TOML a long float); a workspace file holds no
// numbers.
func (h *harness) editBigNumbers(e userEdit, ec editCase) error {
	content, nums := `{"keep": {"other": 1}, "big": 12345678901234567890, "frac": 0.1000000000000000055511151231257827}`,
		[]string{"12345678901234567890", "0.1000000000000000055511151231257827"}
	switch {
	case e.toml && strings.Contains(ec.base, "mcp_servers"):
		content, nums = "big = 1.0000000000000000000001\n"+ec.base, []string{"1.0000000000000000000001"}
	case e.toml:
		return errNotApplicable
	}
	r, after, err := h.runEdit(ec, content)
	if err != nil || r.code != 0 {
		return fmt.Errorf("%s (%v)", r, err)
	}
	for _, n := range nums {
		if !strings.Contains(after, n) {
			return fmt.Errorf("%s mangled: %.400q", n, after)
		}
	}
	return nil
}

// editNull: a JSON file holding null (a TOML file: empty; removing: the
// last root) is an empty configuration, edited without a crash.
func (h *harness) editNull(e userEdit, ec editCase) error {
	content := "null\n"
	switch {
	case e.remove:
		content = "[roots.gone0]\npath = \"/srv/gone0\"\n"
	case e.toml:
		content = ""
	}
	r, after, err := h.runEdit(ec, content)
	if err != nil || r.code != 0 || !ec.applied(e, after, 0) {
		return fmt.Errorf("%s, file now %.300q (%v)", r, after, err)
	}
	return strictParse(e, after)
}

// editStrict: the edited file parses with a strict parser (go-toml/v2,
// like Codex's and Python's tomllib; encoding/json), and a TOML file whose
// table is written inline (where appending a [table] would be invalid) is
// refused unchanged; JSON with a second value after the first likewise.
func (h *harness) editStrict(e userEdit, ec editCase) error {
	r, after, err := h.runEdit(ec, ec.base)
	if err != nil || r.code != 0 {
		return fmt.Errorf("%s (%v)", r, err)
	}
	if err := strictParse(e, after); err != nil {
		return err
	}
	bad := `{"keep": 1} {"more": 2}`
	if e.toml {
		bad = "roots = { gone0 = { path = \"/srv/gone0\" }, mine = { path = \"/srv/mine\" } }\n"
		if strings.Contains(ec.base, "mcp_servers") {
			bad = "mcp_servers = { other = { command = \"npx\" } }\n"
		}
	}
	r, after, err = h.runEdit(ec, bad)
	if err != nil || r.code == 0 || after != bad {
		return fmt.Errorf("a file it cannot edit as written: %s, file now %.300q (%v)", r, after, err)
	}
	return nil
}

func strictParse(e userEdit, content string) error {
	var v map[string]any
	var err error
	if e.toml {
		err = toml.Unmarshal([]byte(content), &v)
	} else {
		err = json.Unmarshal([]byte(content), &v)
	}
	if err != nil {
		return fmt.Errorf("a strict parser rejects the result: %v\n%.400s", err, content)
	}
	return nil
}

// editRace: 10 writers at once: every edit lands (workspace), or exactly
// one does and the nine others are refused as different (agents: one
// "autorag" entry); nobody reports success for an edit that is lost.
func (h *harness) editRace(e userEdit, ec editCase) error {
	if err := os.WriteFile(ec.file, []byte(ec.base), 0o600); err != nil {
		return err
	}
	rs := h.concurrent(ec)
	b, _ := os.ReadFile(ec.file)
	after := string(b)
	ok, refused := 0, 0
	for i, r := range rs {
		switch {
		case r.code == 0 && ec.applied(e, after, i):
			ok++
		case r.code == 0:
			return fmt.Errorf("writer %d succeeded but its edit is lost: %s\n%.400q", i, r, after)
		case ec.race == firstWin && strings.Contains(r.stdout+r.stderr, "different"):
			refused++
		default:
			return fmt.Errorf("writer %d: %s", i, r)
		}
	}
	want := 10
	if ec.race == firstWin {
		want = 1
	}
	if ok != want || ok+refused != 10 || !strings.Contains(after, ec.keep) {
		return fmt.Errorf("%d edits landed, %d refused (want %d landed); file %.400q", ok, refused, want, after)
	}
	return strictParse(e, after)
}
