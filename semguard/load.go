package semguard

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/zeebo/blake3"
	"golang.org/x/tools/go/packages"
)

// pkg is one package of the module, parsed and type-checked from source.
type pkg struct {
	path   string // import path
	rel    string // path relative to the module, "" for the root package
	dir    string
	files  []*ast.File
	names  []string // file paths relative to the module root, parallel to files
	embeds []string // resolved go:embed files (absolute)
	types  *types.Package
	info   *types.Info
}

// module is the loaded module: its packages from source, and the module
// (path@version) that provides every other package they import.
type module struct {
	root  string
	path  string
	fset  *token.FileSet
	pkgs  map[string]*pkg   // by import path
	order []*pkg            // dependency order
	modOf map[string]string // import path of a dependency → "module@version", "std" for the standard library
	goVer string
}

// env pins the platform so a digest does not depend on the machine that
// takes it (files are selected by build constraints), and keeps a go.work
// above the module from adding other modules to it.
var env = []string{"GOOS=linux", "GOARCH=amd64", "GOWORK=off"}

// load lists the module's packages and their dependencies with `go list`
// (no compilation), type-checks the module's packages from source and takes
// the types of every dependency from export data, which the go command
// builds once into its cache. The module's own packages are never compiled,
// so an edit costs no build. Only the packages a digest can reach are
// checked: those with markers, those named by seeds (package paths relative
// to the module) and what they import; a reference only goes from a
// package to one it imports.
func load(root string, seeds []string) (*module, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedEmbedFiles | packages.NeedImports |
			packages.NeedDeps | packages.NeedModule,
		Dir: root,
		Env: append(os.Environ(), env...),
	}
	listed, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, fmt.Errorf("list packages: %w", err)
	}
	m := &module{root: root, fset: token.NewFileSet(), pkgs: map[string]*pkg{}, modOf: map[string]string{}}
	var external []string
	var errs []error
	packages.Visit(listed, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, fmt.Errorf("%s: %s", p.PkgPath, e.Msg))
		}
		switch {
		case p.Module != nil && p.Module.Main:
			m.path = p.Module.Path
			m.goVer = p.Module.GoVersion
			m.pkgs[p.PkgPath] = &pkg{path: p.PkgPath, dir: pkgDir(p), embeds: p.EmbedFiles, files: nil, names: p.GoFiles}
		case p.Module != nil:
			m.modOf[p.PkgPath] = moduleVersion(p.Module)
			external = append(external, p.PkgPath)
		default:
			m.modOf[p.PkgPath] = "std"
			external = append(external, p.PkgPath)
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("list packages: %w", errors.Join(errs...))
	}
	if m.path == "" {
		return nil, fmt.Errorf("no packages of a main module under %s", root)
	}
	deps, err := loadExports(root, external)
	if err != nil {
		return nil, err
	}
	need, err := m.needed(listed, seeds)
	if err != nil {
		return nil, err
	}
	if err := m.check(listed, deps, need); err != nil {
		return nil, err
	}
	return m, nil
}

func pkgDir(p *packages.Package) string {
	if len(p.GoFiles) > 0 {
		return filepath.Dir(p.GoFiles[0])
	}
	return p.Dir
}

// moduleVersion names a dependency the way a digest records it; a replaced
// module by its replacement.
func moduleVersion(mod *packages.Module) string {
	if r := mod.Replace; r != nil {
		if r.Version == "" {
			return mod.Path + "@" + mod.Version + " => " + r.Path // a local directory: its version is unknown
		}
		return mod.Path + "@" + mod.Version + " => " + r.Path + "@" + r.Version
	}
	return mod.Path + "@" + mod.Version
}

// exportCache keeps the dependencies' types for loads of modules with the
// same go.mod, go.sum and imports (the copies the mutation tests load). A
// dependency's types are immutable once read, and go/types may share them
// between type-checks, even concurrent ones.
var exportCache = struct {
	sync.Mutex
	m map[string]map[string]*types.Package
}{m: map[string]map[string]*types.Package{}}

// loadExports returns the types of the dependencies the module imports
// directly, read from export data.
func loadExports(root string, external []string) (map[string]*types.Package, error) {
	key, keyErr := exportKey(root, external)
	if keyErr == nil {
		exportCache.Lock()
		deps := exportCache.m[key]
		exportCache.Unlock()
		if deps != nil {
			return deps, nil
		}
	}
	deps, err := readExports(root, external)
	if err == nil && keyErr == nil {
		exportCache.Lock()
		exportCache.m[key] = deps
		exportCache.Unlock()
	}
	return deps, err
}

func exportKey(root string, external []string) (string, error) {
	h := blake3.New()
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	sorted := append([]string(nil), external...)
	sort.Strings(sorted)
	fmt.Fprintln(h, strings.Join(sorted, " "))
	return string(h.Sum(nil)), nil
}

func readExports(root string, external []string) (map[string]*types.Package, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports, Dir: root, Env: append(os.Environ(), env...)}
	var want []string
	for _, p := range external {
		if p != "unsafe" {
			want = append(want, p)
		}
	}
	sort.Strings(want)
	loaded, err := packages.Load(cfg, want...)
	if err != nil {
		return nil, fmt.Errorf("load dependencies: %w", err)
	}
	out := map[string]*types.Package{"unsafe": types.Unsafe}
	var errs []error
	packages.Visit(loaded, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, fmt.Errorf("%s: %s", p.PkgPath, e.Msg))
		}
		if p.Types != nil {
			out[p.PkgPath] = p.Types
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("load dependencies: %w", errors.Join(errs...))
	}
	return out, nil
}

// check parses and type-checks the module's packages in dependency order.
func (m *module) check(listed []*packages.Package, deps map[string]*types.Package, need map[string]bool) error {
	var visit func(p *packages.Package) error
	done := map[string]bool{}
	visit = func(p *packages.Package) error {
		mp := m.pkgs[p.PkgPath]
		if mp == nil || done[p.PkgPath] || !need[p.PkgPath] {
			return nil
		}
		done[p.PkgPath] = true
		for _, imp := range sortedImports(p) {
			if err := visit(imp); err != nil {
				return err
			}
		}
		if err := m.checkPkg(mp, deps); err != nil {
			return err
		}
		m.order = append(m.order, mp)
		return nil
	}
	for _, p := range listed {
		if err := visit(p); err != nil {
			return err
		}
	}
	return nil
}

// needed returns the import paths of the module packages to check: those
// with a marker in a file or named by seeds, and their imports.
func (m *module) needed(listed []*packages.Package, seeds []string) (map[string]bool, error) {
	seed := map[string]bool{}
	for _, s := range seeds {
		seed[strings.TrimSuffix(m.path+"/"+s, "/")] = true
	}
	need := map[string]bool{}
	var add func(p *packages.Package)
	add = func(p *packages.Package) {
		if m.pkgs[p.PkgPath] == nil || need[p.PkgPath] {
			return
		}
		need[p.PkgPath] = true
		for _, imp := range p.Imports {
			add(imp)
		}
	}
	var err error
	packages.Visit(listed, nil, func(p *packages.Package) {
		mp := m.pkgs[p.PkgPath]
		if mp == nil || err != nil {
			return
		}
		marked, e := hasMarker(mp.names)
		if e != nil {
			err = e
		}
		if marked || seed[p.PkgPath] {
			add(p)
		}
	})
	return need, err
}

// hasMarker reports whether a file mentions the marker prefix.
func hasMarker(files []string) (bool, error) {
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			return false, err
		}
		if bytes.HasPrefix(b, []byte(markerPrefix)) || bytes.Contains(b, []byte("\n"+markerPrefix)) {
			return true, nil
		}
	}
	return false, nil
}

func sortedImports(p *packages.Package) []*packages.Package {
	keys := make([]string, 0, len(p.Imports))
	for k := range p.Imports {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*packages.Package, len(keys))
	for i, k := range keys {
		out[i] = p.Imports[k]
	}
	return out
}

func (m *module) checkPkg(p *pkg, deps map[string]*types.Package) error {
	abs := p.names
	p.names = make([]string, len(abs))
	for i, name := range abs {
		f, err := parser.ParseFile(m.fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("parse: %w", err)
		}
		p.files = append(p.files, f)
		p.names[i] = m.relPath(name)
	}
	p.rel = strings.TrimPrefix(strings.TrimPrefix(p.path, m.path), "/")
	p.info = &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{
		GoVersion: "go" + m.goVer,
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if mp := m.pkgs[path]; mp != nil && mp.types != nil {
				return mp.types, nil
			}
			if t := deps[path]; t != nil {
				return t, nil
			}
			return nil, fmt.Errorf("package %s not loaded", path)
		}),
		Sizes: types.SizesFor("gc", "amd64"),
	}
	t, err := conf.Check(p.path, m.fset, p.files, p.info)
	if err != nil {
		return fmt.Errorf("type-check %s: %w", p.path, err)
	}
	p.types = t
	return nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// relPath is name relative to the module root, with '/' separators.
func (m *module) relPath(name string) string {
	if r, err := filepath.Rel(m.root, name); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(name)
}
