package main

import (
	"strings"
	"testing"
)

// Tests of what a new user met on real trees (issue 24), through the CLI.

// k follows one rule everywhere (agentapi.ResolveK): 1 to 1000.
func TestQueryKOneRule(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.md", "# Heron\n\nThe heron fishes.\n")
	mustOK(t, "--root", root, "refresh", "-q")
	for _, k := range []string{"0", "-1", "1001"} {
		r := cli(t, nil, "--root", root, "query", "-k", k, "heron")
		if r.code != 2 || !strings.Contains(r.stderr, "k must be between 1 and 1000") {
			t.Errorf("-k %s: exit %d, stderr %q; want 2 and the rule", k, r.code, r.stderr)
		}
	}
	mustOK(t, "--root", root, "query", "-k", "1000", "heron")
}
