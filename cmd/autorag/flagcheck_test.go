package main

import (
	"strings"
	"testing"
)

// TestCountFlagsRefuseNonPositive: --max-tokens 0 is refused like a
// negative budget (its message says "positive"), and --rerank-n (flag,
// environment) below 1 is an error, not silently the default.
func TestCountFlagsRefuseNonPositive(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.md", "# A\nalpha beta\n")
	if r := cli(t, nil, "--root", root, "refresh", "--embedder", "none"); r.code != 0 {
		t.Fatalf("refresh: %d %s", r.code, r.stderr)
	}
	for _, tc := range []struct {
		env  []string
		args []string
		want string
	}{
		{nil, []string{"--max-tokens", "0"}, "--max-tokens"},
		{nil, []string{"--max-tokens", "-3"}, "--max-tokens"},
		{nil, []string{"--rerank-n", "-5"}, "rerank"},
		{nil, []string{"--rerank-n", "0"}, "rerank"},
		{[]string{"AUTORAG_RERANK_N=-5"}, nil, "AUTORAG_RERANK_N"},
	} {
		args := append([]string{"--root", root, "query"}, tc.args...)
		r := cli(t, tc.env, append(args, "alpha")...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v %v: exit %d, %s; want 2 naming %s", tc.env, tc.args, r.code, r.stderr, tc.want)
		}
	}
	if r := cli(t, nil, "--root", root, "query", "--max-tokens", "50", "--rerank-n", "5", "alpha"); r.code != 0 {
		t.Errorf("valid counts: exit %d %s", r.code, r.stderr)
	}
}
