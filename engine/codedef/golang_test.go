package codedef

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseGo(t *testing.T) {
	src := `package store

import "os"

// Store keeps documents.
type Store struct{ dir string }

// Get returns a document.
func (s *Store) Get(id string) ([]byte, error) {
	return os.ReadFile(s.dir + id)
}

func open() {}

// Errors.
var (
	// ErrA is one.
	ErrA = 1
	ErrB, _ = 2, 3
)

const Limit = 10
`
	got, err := ParseGo([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Def{
		{Name: "Store", Kind: KindType, StartLine: 5, EndLine: 6, Parent: -1, Label: "type Store"},
		{Name: "Get", Kind: KindMethod, StartLine: 8, EndLine: 11, Parent: -1, Label: "func (s *Store) Get"},
		{Name: "open", Kind: KindFunction, StartLine: 13, EndLine: 13, Parent: -1, Label: "func open"},
		{Name: "", Kind: KindVariable, StartLine: 15, EndLine: 20, Parent: -1, Label: "var (ErrA, ErrB)"},
		{Name: "ErrA", Kind: KindVariable, StartLine: 17, EndLine: 18, Parent: 3, Label: "var ErrA"},
		{Name: "ErrB", Kind: KindVariable, StartLine: 19, EndLine: 19, Parent: 3, Label: "var ErrB"},
		{Name: "Limit", Kind: KindConstant, StartLine: 22, EndLine: 22, Parent: -1, Label: "const Limit"},
	}
	spans := []string{
		"// Store keeps documents.\ntype Store struct{ dir string }",
		"// Get returns a document.\nfunc (s *Store) Get(id string) ([]byte, error) {\n\treturn os.ReadFile(s.dir + id)\n}",
		"func open() {}",
		"// Errors.\nvar (\n\t// ErrA is one.\n\tErrA = 1\n\tErrB, _ = 2, 3\n)",
		"// ErrA is one.\n\tErrA = 1",
		"ErrB, _ = 2, 3",
		"const Limit = 10",
	}
	for i, d := range got {
		if i < len(spans) && src[d.StartByte:d.EndByte] != spans[i] {
			t.Errorf("%s: span %q, want %q", d.Label, src[d.StartByte:d.EndByte], spans[i])
		}
		got[i].StartByte, got[i].EndByte = 0, 0
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("ParseGo (-want +got):\n%s", diff)
	}
	if _, err := ParseGo([]byte("package p\nfunc broken( {\n")); err == nil {
		t.Fatal("ParseGo accepted a syntax error")
	}
}
