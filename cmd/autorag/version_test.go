package main

import (
	"bytes"
	"context"
	"errors"
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

// TestOneCommandTreeAnswersAsTheWholeTree: a command line that starts with
// a command's name is parsed by a root holding that command only; its
// help, its usage errors and its hints are those of the whole tree.
func TestOneCommandTreeAnswersAsTheWholeTree(t *testing.T) {
	whole := newRootCmd(&globals{stdout: io.Discard, stderr: io.Discard})
	if len(whole.Commands()) != len(commands) {
		t.Fatalf("the tree has %d commands, the table %d", len(whole.Commands()), len(commands))
	}
	for _, sub := range whole.Commands() {
		if sub.Name() != commands[indexOf(sub.Name())].name {
			t.Fatalf("command %s is not in the table", sub.Name())
		}
	}
	lines := [][]string{{"--help"}, {"--no-such-flag"}, {"-q", "--json", "--no-such-flag"}}
	for _, c := range commands {
		lines = append(lines, []string{c.name, "--help"}, []string{c.name, "--no-such-flag"}, []string{c.name, "--jsn"})
	}
	lines = append(lines, []string{"index", "verify", "--help"}, []string{"workspace", "add", "--help"}, []string{"query"},
		[]string{"query", "-k", "zero", "x"}, []string{"quary", "x"})
	for _, args := range lines {
		var a, b bytes.Buffer
		codeA := run(context.Background(), args, strings.NewReader(""), &a, &a)
		g := &globals{stdin: strings.NewReader(""), stdout: &b, stderr: &b}
		root := newRootCmd(g)
		root.SetArgs(args)
		root.SetIn(g.stdin)
		root.SetOut(&b)
		root.SetErr(&b)
		cmd, err := root.ExecuteContextC(context.Background())
		codeB := exitOK
		if err != nil {
			var rerr *runError
			if errors.As(err, &rerr) {
				err = rerr.err
			} else {
				err = cobraError(cmd, err)
			}
			codeB = report(err, g.json, g.hint, &b, &b)
		}
		if a.String() != b.String() || codeA != codeB {
			t.Errorf("autorag %s: exit %d with the one-command tree, %d with the whole:\n%s\n---\n%s", strings.Join(args, " "), codeA, codeB, a.String(), b.String())
		}
	}
}

func indexOf(name string) int {
	for i, c := range commands {
		if c.name == name {
			return i
		}
	}
	return 0
}
