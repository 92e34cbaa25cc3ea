package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
)

// Root is one named root and its settings.
type Root struct {
	Name     string `toml:"-" json:"name"`
	Path     string `toml:"path" json:"path"`
	Watch    *bool  `toml:"watch,omitempty" json:"watch,omitempty"`
	Poll     string `toml:"poll,omitempty" json:"poll,omitempty"`
	Debounce string `toml:"debounce,omitempty" json:"debounce,omitempty"`
}

// Watched reports whether a server's --watch keeps the root live.
func (r Root) Watched() bool { return r.Watch == nil || *r.Watch }

// PollEvery and DebounceFor are the durations set (0 when not).
func (r Root) PollEvery() time.Duration   { d, _ := time.ParseDuration(r.Poll); return d }
func (r Root) DebounceFor() time.Duration { d, _ := time.ParseDuration(r.Debounce); return d }

// File is the workspace file's content.
type File struct {
	Path  string          `toml:"-"`
	Roots map[string]Root `toml:"roots"`
}

// DefaultPath is the workspace file: $AUTORAG_WORKSPACES, else
// $XDG_CONFIG_HOME/autorag/workspaces.toml, else under ~/.config.
func DefaultPath() (string, error) {
	if p := os.Getenv("AUTORAG_WORKSPACES"); p != "" {
		return filepath.Abs(p)
	}
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "autorag", "workspaces.toml"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("workspace file: %w (set XDG_CONFIG_HOME or AUTORAG_WORKSPACES)", err)
	}
	return filepath.Join(home, ".config", "autorag", "workspaces.toml"), nil
}

// Load reads the file at path; a missing file is an empty workspace.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Path: path, Roots: map[string]Root{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("workspace file %s: %w", path, err)
	}
	return parse(path, b)
}

// parse decodes and checks the content of the workspace file at path.
func parse(path string, content []byte) (*File, error) {
	f := &File{Path: path, Roots: map[string]Root{}}
	md, err := toml.Decode(string(content), f)
	if err != nil {
		return nil, fmt.Errorf("workspace file %s: %w", path, err)
	}
	if un := md.Undecoded(); len(un) > 0 {
		return nil, fmt.Errorf("workspace file %s: unknown key %s (known: path, watch, poll, debounce)", path, un[0])
	}
	if f.Roots == nil {
		f.Roots = map[string]Root{}
	}
	for name, r := range f.Roots {
		r.Name = name
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("workspace file %s: %w", path, err)
		}
		f.Roots[name] = r
	}
	return f, nil
}

// validName is compiled at the first check, not at every autorag start.
var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`) })

func (r Root) check() error {
	if r.Name == "all" {
		return fmt.Errorf("root name %q names every root: choose another with --name", r.Name)
	}
	if !validName().MatchString(r.Name) {
		return fmt.Errorf("root name %q: use letters, digits, '.', '_' and '-'", r.Name)
	}
	if !filepath.IsAbs(r.Path) {
		return fmt.Errorf("root %s: path %q is not absolute", r.Name, r.Path)
	}
	for _, d := range []struct{ key, v string }{{"poll", r.Poll}, {"debounce", r.Debounce}} {
		if d.v == "" {
			continue
		}
		if v, err := time.ParseDuration(d.v); err != nil || v < 0 {
			return fmt.Errorf("root %s: %s %q: want a duration such as 2s", r.Name, d.key, d.v)
		}
	}
	return nil
}

// List is the roots sorted by name.
func (f *File) List() []Root {
	out := make([]Root, 0, len(f.Roots))
	for _, r := range f.Roots {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Root) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Add records r (its path made absolute and checked to be a directory).
// A name already taken, or a path already listed under another name, is
// an error.
func (f *File) Add(r Root) error {
	abs, err := filepath.Abs(r.Path)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return fmt.Errorf("root %s: %s is not a directory", r.Name, abs)
	}
	r.Path = abs
	if err := r.check(); err != nil {
		return err
	}
	if old, ok := f.Roots[r.Name]; ok {
		return fmt.Errorf("root %s is already in the workspace (%s): remove it first", r.Name, old.Path)
	}
	for _, old := range f.Roots {
		if old.Path == abs || sameDir(old.Path, abs) {
			return fmt.Errorf("%s is already in the workspace as %s", abs, old.Name)
		}
	}
	f.Roots[r.Name] = r
	return nil
}

// sameDir reports whether paths a and b name one directory (through a
// symlink, or another path to it).
func sameDir(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// Remove drops the root of that name.
func (f *File) Remove(name string) error {
	if _, ok := f.Roots[name]; !ok {
		return fmt.Errorf("no root %s in %s", name, f.Path)
	}
	delete(f.Roots, name)
	return nil
}

// Select returns the roots named (all of them for "all"), in the order
// named; an unknown name is an error naming the known ones.
func (f *File) Select(names []string) ([]Root, error) {
	var out []Root
	seen := map[string]bool{}
	add := func(r Root) {
		if !seen[r.Name] {
			seen[r.Name] = true
			out = append(out, r)
		}
	}
	for _, n := range names {
		if n == "all" {
			for _, r := range f.List() {
				add(r)
			}
			continue
		}
		r, ok := f.Roots[n]
		if !ok {
			known := make([]string, 0, len(f.Roots))
			for _, r := range f.List() {
				known = append(known, r.Name)
			}
			return nil, fmt.Errorf("no root %q in %s (it has: %s; add one with autorag workspace add)", n, f.Path, strings.Join(known, ", "))
		}
		add(r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the workspace %s has no roots: add one with autorag workspace add DIR", f.Path)
	}
	return out, nil
}
