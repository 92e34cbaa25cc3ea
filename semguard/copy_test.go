package semguard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// baseline is the state of this module's source, computed once. Every copy
// gets it as its record, so a mutation test sees only its own mutation
// even when this tree's record is stale (TestGuard says so on its own).
var baseline = sync.OnceValues(func() (*State, error) { return Compute("..", Project) })

// copyModule copies the module into a temporary directory — every file but
// tests, testdata, hidden directories and bin/, so that any embedded data
// comes along — and records the baseline there.
func copyModule(t *testing.T) string {
	t.Helper()
	st, err := baseline()
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	err = filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", p)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, "_test.go") || !d.Type().IsRegular() {
			return nil
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.write(dst, Project); err != nil {
		t.Fatal(err)
	}
	return dst
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// edit replaces old by new, once, in the module file rel under root.
func edit(t *testing.T, root, rel, old, new string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(b), old) != 1 {
		t.Fatalf("mutation anchor %q is not in %s exactly once: update this test to the code", old, rel)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustContain(t *testing.T, err error, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("guard passed; want a failure containing %q", wants)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("failure does not contain %q:\n%v", w, err)
		}
	}
}

// editFunc replaces old by new, once, inside the function or method name
// (recv "" for a function, "*T" or "T" for a method) wherever it is declared
// in the module under root, and returns the symbol as the guard names it.
// Finding it by name keeps the mutation on its target when a change
// elsewhere moves it to another file or package.
func editFunc(t *testing.T, root, recv, name, old, new string) string {
	t.Helper()
	rel, off, end := findFunc(t, root, recv, name)
	p := filepath.Join(root, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	decl := string(b[off:end])
	if strings.Count(decl, old) != 1 {
		t.Fatalf("mutation anchor %q is not in %s (%s) exactly once: update this test to the code", old, name, rel)
	}
	out := string(b[:off]) + strings.Replace(decl, old, new, 1) + string(b[end:])
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	key := name
	switch {
	case strings.HasPrefix(recv, "*"):
		key = "(" + recv + ")." + name
	case recv != "":
		key = recv + "." + name
	}
	return path.Dir(rel) + "." + key
}

// findFunc returns the file (relative to root) declaring the function and
// the byte offsets of its declaration, doc comment included.
func findFunc(t *testing.T, root, recv, name string) (rel string, off, end int) {
	t.Helper()
	var found []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p == filepath.Join(root, "semguard") {
			return filepath.SkipDir // the guard itself is never a target
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil // not this test's business
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != name || recvName(fd) != recv {
				continue
			}
			r, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(r)
			start := fd.Pos()
			if fd.Doc != nil {
				start = fd.Doc.Pos()
			}
			off, end = fset.Position(start).Offset, fset.Position(fd.End()).Offset
			found = append(found, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 {
		t.Fatalf("function %s %s declared in %v, want exactly one place: update this test to the code", recv, name, found)
	}
	return rel, off, end
}

func recvName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	switch t := fd.Recv.List[0].Type.(type) {
	case *ast.StarExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			return "*" + id.Name
		}
	case *ast.Ident:
		return t.Name
	}
	return "?"
}
