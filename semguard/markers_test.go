package semguard

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadMarkers: unpaired, nested, misnested, empty and duplicated
// markers, malformed ones and markers inside a declaration each fail, all
// at once, with their file and line. The markers are in a new package of
// the copy, so no change elsewhere moves them.
func TestBadMarkers(t *testing.T) {
	t.Parallel()
	base, err := baseline()
	if err != nil {
		t.Fatal(err)
	}
	existing := base.Regions[0] // a region of the module, to duplicate
	root := copyModule(t)
	const dir = "semguardmarks"
	files := map[string]string{
		"a.go": "//semguard:begin stray\n\nvar a = 1\n",
		"b.go": "var b = 1\n\n//semguard:end lonely\n",
		"c.go": "//semguard:begin outer\n\n//semguard:begin inner\n\nvar c = 1\n",
		"d.go": "//semguard:begin void\n\n//semguard:end void\n\nvar d = 1\n",
		"e.go": "//semguard:begin " + existing.Name + "\n\nvar e = 1\n\n//semguard:end " + existing.Name + "\n",
		"f.go": "func f() int {\n//semguard:begin inside\n\treturn 1\n}\n",
		"g.go": "//semguard:begin two words\n\nvar g = 1\n",
		"h.go": "//semguard:begin x\n\nvar h = 1\n\n//semguard:end y\n",
	}
	wants := map[string]string{
		"a.go": `//semguard:begin stray|begin "stray" has no end`,
		"b.go": `//semguard:end lonely|end "lonely" without a begin`,
		"c.go": `//semguard:begin inner|begin "inner" inside region "outer" opened at ` + dir + "/c.go:",
		"d.go": `//semguard:begin void|region "void" is empty`,
		"e.go": `//semguard:begin|region "` + existing.Name + `" duplicated: it is already opened at ` + existing.File + ":",
		"f.go": `//semguard:begin inside|marker "//semguard:begin inside" inside the declaration at ` + dir + "/f.go:",
		"g.go": `//semguard:begin two words|marker "//semguard:begin two words": want exactly one region name`,
		"h.go": `//semguard:end y|end "y" does not match region "x" opened at ` + dir + "/h.go:",
	}
	// Importing the package of the region duplicated has it found first.
	imp := "import _ \"github.com/autorag/autorag/" + path.Dir(existing.File) + "\"\n\n"
	if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for name, body := range files {
		src := "package " + dir + "\n\n" + imp + body
		if err := os.WriteFile(filepath.Join(root, dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		marker, msg, _ := strings.Cut(wants[name], "|")
		line := strings.Count(src[:strings.Index(src, marker)], "\n") + 1
		msgs = append(msgs, fmt.Sprintf("%s/%s:%d: %s", dir, name, line, msg))
	}
	mustContain(t, Check(root, Project), msgs...)
}
