package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	toml2 "github.com/pelletier/go-toml/v2"
)

const handWritten = `# My roots, written by hand.
[roots.notes] # the notes
path = "/srv/notes" # on the NAS
poll = "10s"

# The API comes next.
[roots.api]
path = "/srv/api"
`

func newDir(t *testing.T, name string) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAddRootKeepsComments: an add appends; a remove cuts one table;
// every comment the user wrote survives both, and the result parses with
// a strict parser.
func TestAddRootKeepsComments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "workspaces.toml")
	os.WriteFile(path, []byte(handWritten), 0o600)
	web := newDir(t, "web")
	ed, err := AddRoot(context.Background(), path, Root{Name: "web.v2", Path: web})
	if err != nil {
		t.Fatal(err)
	}
	if ed.Backup != path+".bak" || len(ed.Roots) != 3 {
		t.Errorf("add: %+v", ed)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), handWritten) {
		t.Fatalf("the user's text was not kept:\n%s", b)
	}
	var strict map[string]any
	if err := toml2.Unmarshal(b, &strict); err != nil {
		t.Fatalf("strict parse: %v\n%s", err, b)
	}
	if _, err := RemoveRoot(context.Background(), path, "notes"); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	for _, keep := range []string{"# My roots, written by hand.", "# The API comes next.", "[roots.api]", `[roots."web.v2"]`} {
		if !strings.Contains(string(b), keep) {
			t.Errorf("lost %q:\n%s", keep, b)
		}
	}
	if strings.Contains(string(b), "/srv/notes") {
		t.Errorf("notes still there:\n%s", b)
	}
	f, err := Load(path)
	if err != nil || len(f.Roots) != 2 || f.Roots["web.v2"].Path != web {
		t.Errorf("after remove: %v %+v", err, f)
	}
}

// TestAddRootRefusesWhatItCannotEditAsText: roots written inline cannot
// take an appended table; the file is left as it is.
func TestAddRootRefusesWhatItCannotEditAsText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "workspaces.toml")
	inline := "roots = { notes = { path = \"/srv/notes\" } }\n"
	os.WriteFile(path, []byte(inline), 0o600)
	if _, err := AddRoot(context.Background(), path, Root{Name: "web", Path: newDir(t, "web")}); err == nil || !strings.Contains(err.Error(), "by hand") {
		t.Errorf("add to inline roots: %v", err)
	}
	if _, err := RemoveRoot(context.Background(), path, "notes"); err == nil || !strings.Contains(err.Error(), "by hand") {
		t.Errorf("remove of an inline root: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != inline {
		t.Errorf("the file changed:\n%s", b)
	}
}

// TestAddRootThroughSymlinkAndReadOnly: a linked file is edited through
// the link; a read-only one is refused.
func TestAddRootThroughSymlinkAndReadOnly(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "workspaces.toml")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte(handWritten), 0o600)
	link := filepath.Join(dir, "workspaces.toml")
	os.Symlink(real, link)
	if _, err := AddRoot(context.Background(), link, Root{Name: "web", Path: newDir(t, "web")}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link became a %v", fi.Mode())
	}
	if f, _ := Load(real); len(f.Roots) != 3 {
		t.Errorf("the target has %d roots", len(f.Roots))
	}
	os.Chmod(real, 0o444)
	before, _ := os.ReadFile(real)
	if _, err := RemoveRoot(context.Background(), link, "web"); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("remove from a read-only file: %v", err)
	}
	if after, _ := os.ReadFile(real); string(after) != string(before) {
		t.Error("the read-only file changed")
	}
}

// TestAddRootConcurrent: adds at once all land.
func TestAddRootConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "workspaces.toml")
	var wg sync.WaitGroup
	for i := range 10 {
		d := newDir(t, fmt.Sprint("r", i))
		wg.Go(func() {
			if _, err := AddRoot(context.Background(), path, Root{Name: filepath.Base(d), Path: d}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	f, err := Load(path)
	if err != nil || len(f.Roots) != 10 {
		t.Errorf("%v: %d roots, want 10", err, len(f.Roots))
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

// TestRemoveRootFromTheOldEncoderLayout: files the encoder wrote before
// (an empty [roots] header, indented tables) are edited as text too.
func TestRemoveRootFromTheOldEncoderLayout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "workspaces.toml")
	old := "# autorag workspace\n\n[roots]\n  [roots.a]\n    path = \"/srv/a\"\n  [roots.b]\n    path = \"/srv/b\"\n    watch = false\n"
	os.WriteFile(path, []byte(old), 0o600)
	if _, err := RemoveRoot(context.Background(), path, "a"); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil || len(f.Roots) != 1 || f.Roots["b"].Watched() {
		t.Fatalf("%v %+v", err, f)
	}
	if _, err := AddRoot(context.Background(), path, Root{Name: "c", Path: newDir(t, "c")}); err != nil {
		t.Fatal(err)
	}
	if _, err := RemoveRoot(context.Background(), path, "b"); err != nil {
		t.Fatal(err)
	}
	if f, err := Load(path); err != nil || len(f.Roots) != 1 || f.Roots["c"].Path == "" {
		t.Fatalf("%v %+v", err, f)
	}
}
