package engine

import (
	"os/exec"
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
	if !under(pkgs[engine+"/rank"].path, engine) {
		t.Fatal("the module's package list is empty")
	}
	weaviate := engine + "/backend/weaviate"
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
