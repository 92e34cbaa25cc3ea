package semguard

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDependencyChangeIsDigested: the same code of a dependency under
// another module version (here the Porter stemmer replaced by a local copy
// of itself)
// fails the guard, naming the dependency and the regions that reach it.
func TestDependencyChangeIsDigested(t *testing.T) {
	t.Parallel()
	root := copyModule(t)
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/blevesearch/go-porterstemmer").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	src := strings.TrimSpace(string(out))
	dst := filepath.Join(root, "third_party", "porterstemmer")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		return copyFile(p, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(root, "go.mod"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\nreplace github.com/blevesearch/go-porterstemmer => ./third_party/porterstemmer\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	mustContain(t, Check(root, Project), "dependency: analyzer: ", "github.com/blevesearch/go-porterstemmer@v1.0.3 => ./third_party/porterstemmer",
		"analyzer (changed)", "bleve-doc (changed)")
}
