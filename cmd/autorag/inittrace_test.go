package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// initLine is one package's line of GODEBUG=inittrace=1.
var initLine = regexp.MustCompile(`(?m)^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, (\d+) bytes, (\d+) allocs$`)

// TestStartDoesNotBuildLazyTables: every autorag process runs the init of
// every linked package, `--version` included, so the tables only some
// commands use are built at first use. Before: x/net/html's entity maps
// (126 KB, about 0.12 ms and 30 page faults) were built by every process.
func TestStartDoesNotBuildLazyTables(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--version")
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1", "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("autorag --version: %v\n%s", err, out)
	}
	limits := map[string]int{ // bytes allocated by the package's init
		"github.com/autorag/autorag/internal/xhtml": 32 << 10,
	}
	seen := map[string]bool{}
	for _, m := range initLine.FindAllStringSubmatch(string(out), -1) {
		limit, ok := limits[m[1]]
		if !ok {
			continue
		}
		seen[m[1]] = true
		if n, _ := strconv.Atoi(m[2]); n > limit {
			t.Errorf("init of %s allocates %d bytes (at most %d)", m[1], n, limit)
		}
	}
	for pkg := range limits {
		if !seen[pkg] {
			t.Errorf("no init line for %s in:\n%s", pkg, out)
		}
	}
}
