package semguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadMarkers: unpaired, misnested, empty and duplicated markers,
// malformed ones and markers inside a declaration each fail, all at once,
// with their file and line.
func TestBadMarkers(t *testing.T) {
	t.Parallel()
	root := copyModule(t)
	type want struct{ rel, line, msg string }
	var wants []want
	mark := func(rel, anchor, insert, line, msg string) {
		edit(t, root, rel, anchor, insert+anchor)
		wants = append(wants, want{rel, line, msg})
	}
	mark("mirror/lang.go", "// kind is what", "//semguard:begin stray\n\n", "//semguard:begin stray", `begin "stray" has no end`)
	mark("engine/glob.go", "// pathFilter", "//semguard:end lonely\n\n", "//semguard:end lonely", `end "lonely" without a begin`)
	mark("engine/layout.go", "// NewLayout", "//semguard:begin outer\n\n//semguard:begin inner\n\n", "//semguard:begin inner", `begin "inner" inside region "outer"`)
	mark("engine/layout.go", "// DirName", "//semguard:begin two words\n\n", "//semguard:begin two words", `marker "//semguard:begin two words": want exactly one region name`)
	mark("engine/failpoint.go", "// failpoint acts", "//semguard:begin void\n\n//semguard:end void\n\n", "//semguard:begin void", `region "void" is empty`)
	mark("engine/failpoint.go", "// FailpointEnv names", "//semguard:begin parse\n\n", "//semguard:begin parse", `region "parse" duplicated: it is already opened at mirror/parse.go:`)
	edit(t, root, "engine/failpoint.go", "const FailpointEnv = \"AUTORAG_FAILPOINT\"\n", "const FailpointEnv = \"AUTORAG_FAILPOINT\"\n\n//semguard:end parse\n")
	mark("engine/admin.go", "\tst.LockHolder = holder", "//semguard:begin inside\n", "//semguard:begin inside", `marker "//semguard:begin inside" inside the declaration`)
	var msgs []string
	for _, w := range wants {
		b, err := os.ReadFile(filepath.Join(root, w.rel))
		if err != nil {
			t.Fatal(err)
		}
		line := strings.Count(string(b[:strings.Index(string(b), w.line)]), "\n") + 1
		msgs = append(msgs, fmt.Sprintf("%s:%d: %s", w.rel, line, w.msg))
	}
	mustContain(t, Check(root, Project), msgs...)
}
