package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const installGuide = `# Installing the agent

Download the agent archive for your platform, unpack it into /opt/agent and
start it with the service manager. The agent reads its configuration from
/etc/agent/config.yaml and reports to the collector on port 4317.
`

// versionedTree is a documentation tree with one folder per product
// version, where the install guide did not change between versions.
func versionedTree(t *testing.T) string {
	root := t.TempDir()
	for _, v := range []string{"v1.0", "v1.1", "v2.0", "v2.1"} {
		writeFile(t, root, "docs/"+v+"/install.md", installGuide)
	}
	writeFile(t, root, "docs/v2.1/upgrade.md", "# Upgrading the agent\n\nStop the agent, install the new archive over the old one and start it again.\n")
	return root
}

// TestGoldenCollapse pins what people see when the same passage is in
// several files: one result with an "also in" line (testdata/
// golden_collapse.txt; -update rewrites it), and with --no-collapse every
// copy as a result of its own.
func TestGoldenCollapse(t *testing.T) {
	root := versionedTree(t)
	refreshJSON(t, root)
	got := mustOK(t, "--root", root, "query", "--mode", "bm25", "-k", "3", "install the agent").stdout
	golden := filepath.Join("testdata", "golden_collapse.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update once)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("collapsed output changed (-want +got):\n%s", diff)
	}

	m := mustOK(t, "--root", root, "query", "--json", "-k", "3", "install the agent").json(t)
	res := m["results"].([]any)
	if len(res) != 2 {
		t.Fatalf("hybrid results %v, want the guide once and the upgrade note", res)
	}
	top := res[0].(map[string]any)
	also, _ := top["also_in"].([]any)
	// The newest version is shown (issue 24), the others in rank order.
	if top["path"] != "docs/v2.1/install.md" || len(also) != 3 {
		t.Fatalf("first result %v with also_in %v, want docs/v2.1/install.md also in 3 files", top["path"], also)
	}
	if a := also[0].(map[string]any); a["path"] != "docs/v1.0/install.md" || !cmp.Equal(a["lines"], []any{1.0, 5.0}) {
		t.Errorf("also_in[0] = %v", a)
	}
	if _, ok := res[1].(map[string]any)["also_in"]; ok {
		t.Errorf("a passage found once has an also_in: %v", res[1])
	}

	all := mustOK(t, "--root", root, "query", "--json", "--no-collapse", "-k", "5", "install the agent").json(t)
	if n := len(all["results"].([]any)); n != 5 {
		t.Errorf("--no-collapse: %d results, want 5", n)
	}
	if out := mustOK(t, "--root", root, "query", "--no-collapse", "-k", "5", "install the agent").stdout; strings.Contains(out, "also in") {
		t.Errorf("--no-collapse output says also in:\n%s", out)
	}
}
