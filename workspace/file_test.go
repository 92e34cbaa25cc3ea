package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDefaultPathRespectsXDG(t *testing.T) {
	t.Setenv("AUTORAG_WORKSPACES", "")
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	if p, _ := DefaultPath(); p != "/cfg/autorag/workspaces.toml" {
		t.Errorf("with XDG_CONFIG_HOME: %s", p)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative") // the spec says to ignore a relative one
	t.Setenv("HOME", "/home/ada")
	if p, _ := DefaultPath(); p != "/home/ada/.config/autorag/workspaces.toml" {
		t.Errorf("with a relative XDG_CONFIG_HOME: %s", p)
	}
	t.Setenv("AUTORAG_WORKSPACES", "/elsewhere/ws.toml")
	if p, _ := DefaultPath(); p != "/elsewhere/ws.toml" {
		t.Errorf("with AUTORAG_WORKSPACES: %s", p)
	}
}

func TestAddRemoveRoundTrip(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Mkdir(a, 0o755)
	os.Mkdir(b, 0o755)
	path := filepath.Join(dir, "cfg", "autorag", "workspaces.toml")
	f, err := Load(path)
	if err != nil || len(f.Roots) != 0 {
		t.Fatalf("a missing file: %v %+v", err, f)
	}
	no := false
	if err := f.Add(Root{Name: "notes", Path: a}); err != nil {
		t.Fatal(err)
	}
	if err := f.Add(Root{Name: "api", Path: b, Watch: &no, Poll: "10s"}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Root{{Name: "notes", Path: b}, {Name: "again", Path: a}, {Name: "x", Path: filepath.Join(dir, "nope")},
		{Name: "bad/name", Path: b}, {Name: "p", Path: b, Poll: "soon"}} {
		if err := f.Add(bad); err == nil {
			t.Errorf("Add(%+v) accepted", bad)
		}
	}
	for _, r := range f.List() {
		if _, err := AddRoot(context.Background(), path, r); err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("saved file: %v %v", fi, err)
	}
	g, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(f.List(), g.List()); d != "" {
		t.Errorf("round trip (-saved +loaded):\n%s", d)
	}
	if g.Roots["api"].Watched() || !g.Roots["notes"].Watched() || g.Roots["api"].PollEvery().Seconds() != 10 {
		t.Errorf("settings lost: %+v", g.Roots)
	}
	sel, err := g.Select([]string{"notes", "all"})
	if err != nil || len(sel) != 2 || sel[0].Name != "notes" || sel[1].Name != "api" {
		t.Errorf("select notes,all: %v %+v", err, sel)
	}
	if _, err := g.Select([]string{"nope"}); err == nil || !strings.Contains(err.Error(), "api, notes") {
		t.Errorf("select of an unknown root: %v", err)
	}
	if err := g.Remove("api"); err != nil || g.Remove("api") == nil {
		t.Errorf("remove: %v", err)
	}
}

func TestLoadRefusesUnknownKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.toml")
	os.WriteFile(path, []byte("[roots.a]\npath = \"/tmp\"\nwatc = false\n"), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "watc") {
		t.Errorf("a typo: %v", err)
	}
	os.WriteFile(path, []byte("[roots.a]\npath = \"relative\"\n"), 0o600)
	if _, err := Load(path); err == nil {
		t.Error("a relative path accepted")
	}
}
