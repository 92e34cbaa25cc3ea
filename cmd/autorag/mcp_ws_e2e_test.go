package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/agentapi"
)

// TestMCPTwoRootsWithTypeScriptClient runs testdata/mcpclient/workspace.mjs
// (the TypeScript SDK's client, which validates every structured answer
// against the tool's output schema) against `autorag mcp --root A --root B`.
func TestMCPTwoRootsWithTypeScriptClient(t *testing.T) {
	node, dir := nodeClient(t)
	parent := t.TempDir()
	a, b := filepath.Join(parent, "notes"), filepath.Join(parent, "code")
	for i := range 40 {
		writeFile(t, a, fmt.Sprintf("n%d.md", i), fmt.Sprintf("# Note %d\n\nRetry the upload with exponential backoff, note %d.\n", i, i))
	}
	writeFile(t, b, "retry.go", "package net\n\n// Retry retries with exponential backoff.\nfunc Retry() {}\n")
	mustOK(t, "--root", a, "refresh")
	mustOK(t, "--root", b, "refresh")
	for i := range 40 { // work for the refresh of notes while code answers
		writeFile(t, a, fmt.Sprintf("m%d.md", i), strings.Repeat("More about backoff and retries.\n\n", 100))
	}
	var got struct {
		Both, One, Budget, AfterDelete agentapi.SearchAnswer
		BothRoots, OneRoots            []string
		AfterDeleteRoots               []string
		SearchesDuringRefresh          int
		Refresh                        agentapi.RefreshAnswer
		Status                         agentapi.StatusAnswer
	}
	runNodeClient(t, node, dir, &got, "workspace.mjs", "notes", a, "retry exponential backoff",
		os.Args[0], "mcp", "--root", a, "--root", b)
	if strings.Join(got.BothRoots, ",") != "code,notes" || strings.Join(got.OneRoots, ",") != "code" {
		t.Errorf("roots of the search of both %v, of code %v", got.BothRoots, got.OneRoots)
	}
	if got.Budget.MaxTokens != 300 || got.Budget.Tokens > 300 || got.Budget.Tokens == 0 {
		t.Errorf("max_tokens 300: %+v", got.Budget)
	}
	if !got.Refresh.OK || got.Refresh.Root != "notes" || got.Refresh.Added != 40 {
		t.Errorf("refresh of notes: %+v", got.Refresh)
	}
	t.Logf("code answered %d searches while notes refreshed", got.SearchesDuringRefresh)
	if strings.Join(got.AfterDeleteRoots, ",") != "code" || got.AfterDelete.Roots[0].OK || got.AfterDelete.Roots[0].Error == nil {
		t.Errorf("after deleting notes: roots %v, %+v", got.AfterDeleteRoots, got.AfterDelete.Roots)
	}
	if len(got.Status.Roots) != 2 || got.Status.Roots[0].OK || !got.Status.Roots[1].OK {
		t.Errorf("status after deleting notes: %+v", got.Status.Roots)
	}
}
