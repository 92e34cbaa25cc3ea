package engine

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/autorag/autorag"

// pkgImports is one package of the module as go list sees it.
type pkgImports struct {
	path          string
	imports, deps []string
}

// listModule lists every package of the module with its direct imports and
// all its dependencies (tests excluded).
func listModule(t *testing.T) map[string]pkgImports {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \",\"}}|{{join .Deps \",\"}}", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkgImports{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 3 {
			t.Fatalf("go list line %q", line)
		}
		pkgs[f[0]] = pkgImports{path: f[0], imports: strings.Split(f[1], ","), deps: strings.Split(f[2], ",")}
	}
	return pkgs
}

func under(path, root string) bool { return path == root || strings.HasPrefix(path, root+"/") }

// TestImportRules keeps the engine's layers apart (doc.go of each package
// says what it must never import): ranking and the shared records import
// no index, backend, embedder, mirror or the engine; the storage seam
// (engine/backend) no bleve, backend, embedder or analyzer; bleve is
// imported by the local backend only (and its analysis interfaces by
// engine/analyze); the Weaviate client by the Weaviate adapter only;
// nothing below the engine imports it.
func TestImportRules(t *testing.T) {
	pkgs := listModule(t)
	engine := module + "/engine"
	seam, ok := pkgs[engine+"/backend"]
	if !ok {
		t.Fatalf("go list did not list %s", engine+"/backend")
	}
	for _, d := range seam.deps {
		for _, banned := range []string{"github.com/blevesearch", engine + "/backend/", engine + "/embed", engine + "/analyze"} {
			if d == banned || strings.HasPrefix(d, banned) || under(d, banned) {
				t.Errorf("%s depends on %s", seam.path, d)
			}
		}
	}
	pure := []string{engine + "/rank", engine + "/record"}
	for _, p := range pure {
		pi, ok := pkgs[p]
		if !ok {
			t.Fatalf("go list did not list %s", p)
		}
		for _, d := range pi.deps {
			for _, banned := range []string{"github.com/blevesearch", engine + "/backend", engine + "/embed", engine + "/analyze", module + "/mirror", engine} {
				if d == banned || (banned != engine && under(d, banned)) {
					t.Errorf("%s depends on %s", p, d)
				}
			}
		}
	}
	local, weaviate := engine+"/backend/local", engine+"/backend/weaviate"
	for _, pair := range [][2]string{{local, weaviate}, {weaviate, local}} {
		for _, d := range pkgs[pair[0]].deps {
			if under(d, pair[1]) {
				t.Errorf("%s depends on %s: backends do not reach into each other", pair[0], d)
			}
		}
	}
	if !under(pkgs[engine+"/rank"].path, engine) {
		t.Fatal("the module's package list is empty")
	}
	for _, pi := range pkgs {
		for _, imp := range pi.imports {
			switch {
			case strings.HasPrefix(imp, "github.com/blevesearch/bleve"):
				if !under(pi.path, engine+"/backend/local") &&
					!(pi.path == engine+"/analyze" && strings.HasPrefix(imp, "github.com/blevesearch/bleve/v2/analysis")) {
					t.Errorf("%s imports %s: bleve belongs to the local backend", pi.path, imp)
				}
			case under(imp, weaviate):
				if pi.path != engine && !under(pi.path, weaviate) {
					t.Errorf("%s imports %s: the Weaviate client belongs to its adapter", pi.path, imp)
				}
			}
		}
		if under(pi.path, engine) && pi.path != engine {
			for _, d := range pi.deps {
				if d == engine {
					t.Errorf("%s, below the engine, depends on it", pi.path)
				}
			}
		}
	}
}

// TestChunkingLinksNoParser: what chunks, splits, mirrors or embeds never
// depends on engine/syntax (wazero and the 2.6 MB tree-sitter module): the
// engine passes its Parse in (split.Options.Defs), and the definitions'
// type and languages live in the light engine/codedef.
func TestChunkingLinksNoParser(t *testing.T) {
	pkgs := listModule(t)
	engine := module + "/engine"
	for _, p := range []string{engine + "/chunk", engine + "/split", engine + "/codedef", engine + "/embedding", module + "/mirror"} {
		pi, ok := pkgs[p]
		if !ok {
			t.Fatalf("go list did not list %s", p)
		}
		if slices.Contains(pi.deps, engine+"/syntax") {
			t.Errorf("%s depends on engine/syntax", p)
		}
	}
	if !slices.Contains(pkgs[engine].deps, engine+"/syntax") {
		t.Fatal("the engine does not depend on engine/syntax: the test checks nothing")
	}
}

// TestEngineRootSize keeps the orchestrator small enough to read (issue
// 21): at most 12 non-test files in the engine's root package, none over
// 300 lines. A part that does not fit is a package of its own.
func TestEngineRootSize(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		files++
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("\n")); n > 300 {
			t.Errorf("%s has %d lines; the root's files stay under 300", name, n)
		}
	}
	if files == 0 || files > 12 {
		t.Errorf("the engine root has %d non-test files, want 1 to 12", files)
	}
}
