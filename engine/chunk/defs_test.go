package chunk

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/codedef"
)

var update = flag.Bool("update", false, "rewrite the golden chunks of testdata/defs")

// defSamples are the committed sample files and their languages: Go is cut
// along go/parser's definitions, the others by their rules or lexically.
var defSamples = map[string]string{
	"store.go": "go", "adapter.py": "python", "router.js": "javascript", "config.rs": "rust",
	"Cache.java": "java", "buf.c": "c", "configs.lua": "lua", "router.ex": "elixir",
}

// goldenSize is small enough that the samples' classes split at their
// members.
const goldenSize = 400

// TestDefGoldens pins each sample's chunk boundaries, sections and
// definitions (testdata/defs/NAME.golden; -update rewrites them), and
// checks the chunks against Split's guarantees.
func TestDefGoldens(t *testing.T) {
	for name, lang := range defSamples {
		t.Run(name, func(t *testing.T) {
			src := readSample(t, name)
			o := Options{Size: goldenSize}
			got := SplitLang(KindCode, lang, src, o)
			checkChunks(t, src, o, got)
			if lang == "go" {
				defs, err := codedef.ParseGo([]byte(src))
				if err != nil {
					t.Fatal(err)
				}
				checkDefsKept(t, src, defs, got, o)
			}
			compareGolden(t, name+".golden", renderChunks(got))
		})
	}
}

// TestSplitDefsAtMembers feeds a parser's definitions of a Python file
// (as a syntax tree gives them: a class and its methods, decorators and
// docstrings included): the class, too large for one chunk, splits
// between its methods, each chunk named by its first definition, and no
// definition is cut or goes missing.
func TestSplitDefsAtMembers(t *testing.T) {
	src := readSample(t, "adapter.py")
	defs := []codedef.Def{
		{Name: "TypeAdapter", Kind: codedef.KindClass, StartLine: 6, EndLine: 28, Parent: -1, Label: "class TypeAdapter"},
		{Name: "__init__", Kind: codedef.KindMethod, StartLine: 9, EndLine: 11, Parent: 0, Label: "def __init__"},
		{Name: "validate_python", Kind: codedef.KindMethod, StartLine: 13, EndLine: 17, Parent: 0, Label: "def validate_python"},
		{Name: "validate_json", Kind: codedef.KindMethod, StartLine: 19, EndLine: 21, Parent: 0, Label: "def validate_json"},
		{Name: "core_schema", Kind: codedef.KindMethod, StartLine: 23, EndLine: 25, Parent: 0, Label: "def core_schema"},
		{Name: "dump_json", Kind: codedef.KindMethod, StartLine: 27, EndLine: 28, Parent: 0, Label: "def dump_json"},
		{Name: "include_router", Kind: codedef.KindFunction, StartLine: 31, EndLine: 34, Parent: -1, Label: "def include_router"},
		{Name: "serve", Kind: codedef.KindFunction, StartLine: 37, EndLine: 38, Parent: -1, Label: "async def serve"},
	}
	o := Options{Size: goldenSize}
	got := SplitDefs(KindCode, "python", src, defs, o)
	checkChunks(t, src, o, got)
	checkDefsKept(t, src, defs, got, o)
	compareGolden(t, "adapter.py.syntax.golden", renderChunks(got))
}

// TestSplitDefsBadDefs: definitions outside the text, a parent that does
// not enclose its child and a parent that follows it are not trusted, and
// the chunks still keep Split's guarantees.
func TestSplitDefsBadDefs(t *testing.T) {
	src := "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
	defs := []codedef.Def{
		{Name: "a", Kind: codedef.KindFunction, StartLine: 1, EndLine: 2, Parent: 1, Label: "def a"},
		{Name: "b", Kind: codedef.KindFunction, StartLine: 5, EndLine: 6, Parent: 0, Label: "def b"},
		{Name: "ghost", Kind: codedef.KindFunction, StartLine: 9, EndLine: 40, Parent: -1, Label: "def ghost"},
		{Name: "x", Kind: codedef.KindFunction, StartLine: 3, EndLine: 2, Parent: -1},
	}
	o := Options{Size: 24}
	got := SplitDefs(KindCode, "python", src, defs, o)
	checkChunks(t, src, o, got)
	want := []Chunk{
		{Text: "def a():\n    return 1", StartLine: 1, EndLine: 2, Section: "def a", Defs: []Def{{Name: "a", Kind: "function", Line: 1}}},
		{Text: "def b():\n    return 2", StartLine: 5, EndLine: 6, Section: "def b", Defs: []Def{{Name: "b", Kind: "function", Line: 5}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("SplitDefs mismatch (-want +got):\n%s", diff)
	}
}

// checkDefsKept fails t when a definition that fits the size is cut
// across chunks, or a named definition is listed by no chunk.
func checkDefsKept(t *testing.T, src string, defs []codedef.Def, chunks []Chunk, o Options) {
	t.Helper()
	lines := strings.Split(src, "\n")
	listed := map[string]bool{}
	for _, c := range chunks {
		for _, d := range c.Defs {
			listed[d.Name] = true
		}
	}
	for _, d := range defs {
		s, e := d.StartLine, d.EndLine // its non-blank lines
		for s <= e && strings.TrimSpace(lines[s-1]) == "" {
			s++
		}
		for e >= s && strings.TrimSpace(lines[e-1]) == "" {
			e--
		}
		if s > e {
			continue // white space only: in no chunk
		}
		if d.Name != "" && !listed[d.Name] {
			t.Errorf("definition %s (%s, lines %d-%d) is listed by no chunk", d.Name, d.Kind, d.StartLine, d.EndLine)
		}
		if len([]rune(strings.Join(lines[s-1:e], "\n"))) > o.Normalize().Size {
			continue
		}
		whole := false
		for _, c := range chunks {
			whole = whole || c.StartLine <= s && e <= c.EndLine
		}
		if !whole {
			t.Errorf("definition %q (lines %d-%d) fits a chunk but is cut", d.Label, d.StartLine, d.EndLine)
		}
	}
}

// renderChunks prints each chunk's lines and section, then its
// definitions.
func renderChunks(chunks []Chunk) string {
	var b strings.Builder
	for _, c := range chunks {
		fmt.Fprintf(&b, "%d-%d %s\n", c.StartLine, c.EndLine, c.Section)
		for _, d := range c.Defs {
			fmt.Fprintf(&b, "\t%s %s @%d\n", d.Kind, d.Name, d.Line)
		}
	}
	return b.String()
}

func readSample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "defs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "defs", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Fatalf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

// TestGoGroupSplitsAtSpecs: a grouped declaration too large for one chunk
// splits between its specs, each named by the group and the spec, and
// every name is listed.
func TestGoGroupSplitsAtSpecs(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\n// Limits.\nconst (\n")
	for i := range 12 {
		fmt.Fprintf(&b, "\t// Limit%d is a limit.\n\tLimit%d = %d\n\n", i, i, i)
	}
	b.WriteString(")\n")
	src := b.String()
	o := Options{Size: 120}
	got := SplitLang(KindCode, "go", src, o)
	checkChunks(t, src, o, got)
	defs, err := codedef.ParseGo([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkDefsKept(t, src, defs, got, o)
	if len(got) < 4 || got[1].Section != "const (Limit0, Limit1, Limit2, ...)" {
		t.Fatalf("sections: %s", renderChunks(got))
	}
	for _, c := range got[2:] {
		if want := "const (Limit0, Limit1, Limit2, ...) > const " + c.Defs[0].Name; c.Section != want {
			t.Fatalf("section %q, want %q:\n%s", c.Section, want, renderChunks(got))
		}
	}
}

// TestGoThatDoesNotParse: Go with a syntax error is cut by the generic
// rule and its definitions are found lexically.
func TestGoThatDoesNotParse(t *testing.T) {
	src := "package p\n\nfunc (s *Store) Get(id string) {\n\treturn\n\n\nfunc broken( {\n}\n"
	got := SplitLang(KindCode, "go", src, Options{})
	want := []Def{{Name: "Get", Kind: "method", Line: 3}, {Name: "broken", Kind: "function", Line: 7}}
	if len(got) != 1 {
		t.Fatalf("chunks: %s", renderChunks(got))
	}
	if diff := cmp.Diff(want, got[0].Defs); diff != "" {
		t.Fatalf("defs (-want +got):\n%s", diff)
	}
}

func TestLexicalDef(t *testing.T) {
	tests := []struct {
		line, name, kind string
	}{
		{"def index():", "index", "function"},
		{"local function root_pattern(...)", "root_pattern", "function"},
		{"function M.setup(name, opts)", "setup", "function"},
		{"defmodule Phoenix.Router do", "Router", "namespace"},
		{"func (s *Store) Get(id string) {", "Get", "method"},
		{"pub async fn serve(addr: &str) {", "serve", "function"},
		{"export default class App {", "App", "class"},
		{"build_all() {", "build_all", "function"},
		{"install-deps ()", "install-deps", "function"},
		{"function(x) { return x }", "", ""},
		{"classify(x)", "", ""},
		{"return fn(x)", "", ""},
		{"foo() && bar()", "", ""},
		{"class", "", ""},
	}
	for _, tt := range tests {
		d, ok := lexicalDef(tt.line)
		if !ok {
			d = lineDef{}
		}
		if ok != (tt.name != "") || d.name != tt.name || d.kind != tt.kind {
			t.Errorf("lexicalDef(%q) = %q %q %v, want %q %q", tt.line, d.name, d.kind, ok, tt.name, tt.kind)
		}
	}
}

func TestDefFromLabel(t *testing.T) {
	tests := []struct {
		label       string
		inContainer bool
		name, kind  string
	}{
		{"def get", true, "get", "method"},
		{"def main", false, "main", "function"},
		{"class Store", false, "Store", "class"},
		{"impl Display for Vec<T>", false, "Vec", "impl"},
		{"macro_rules! vec", false, "vec", "macro"},
		{"mod tests", false, "tests", "namespace"},
		{"public Doc get", true, "get", "method"},
		{"static int *parse_header", false, "parse_header", "function"},
		{"fun String.words", false, "words", "function"},
		{"Foo::~Foo", true, "Foo", "method"},
		{"const handler", false, "handler", "function"},
	}
	for _, tt := range tests {
		name, kind := defFromLabel(tt.label, tt.inContainer)
		if name != tt.name || kind != tt.kind {
			t.Errorf("defFromLabel(%q, %v) = %q %q, want %q %q", tt.label, tt.inContainer, name, kind, tt.name, tt.kind)
		}
	}
}
