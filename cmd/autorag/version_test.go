package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// TestVersionFastPathPrintsWhatCobraPrints: `autorag --version` answers
// without the command tree, and says exactly what the tree says.
func TestVersionFastPathPrintsWhatCobraPrints(t *testing.T) {
	var fast bytes.Buffer
	if code := run(context.Background(), []string{"--version"}, strings.NewReader(""), &fast, io.Discard); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var tree bytes.Buffer
	root := newRootCmd(&globals{stdout: &tree, stderr: io.Discard})
	root.SetArgs([]string{"--version"})
	root.SetOut(&tree)
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if fast.String() != tree.String() || !strings.HasPrefix(fast.String(), "autorag ") {
		t.Fatalf("fast path %q, command tree %q", fast.String(), tree.String())
	}
	// Anything else still goes through the tree: --version with a global
	// flag is cobra's to parse.
	var both bytes.Buffer
	if code := run(context.Background(), []string{"--version", "-q"}, strings.NewReader(""), &both, io.Discard); code != exitOK || both.String() != tree.String() {
		t.Fatalf("--version -q: exit %d, %q", code, both.String())
	}
}
