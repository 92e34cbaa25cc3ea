package split

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/chunk"
	"github.com/autorag/autorag/engine/codedef"
	"github.com/autorag/autorag/mirror"
)

// pySrc is a class with two methods, too large together for a 60-rune
// chunk, and a function.
const pySrc = "class Store:\n    def get(self, k):\n        return self.d[k]\n\n    def put(self, k, v):\n        self.d[k] = v\n\n\ndef main():\n    pass\n"

// pyDefs is what a syntax parser finds in pySrc.
var pyDefs = []codedef.Def{
	{Name: "Store", Kind: codedef.KindClass, StartLine: 1, EndLine: 6, Parent: -1, Label: "class Store"},
	{Name: "get", Kind: codedef.KindMethod, StartLine: 2, EndLine: 3, Parent: 0, Label: "def get"},
	{Name: "put", Kind: codedef.KindMethod, StartLine: 5, EndLine: 6, Parent: 0, Label: "def put"},
	{Name: "main", Kind: codedef.KindFunction, StartLine: 9, EndLine: 10, Parent: -1, Label: "def main"},
}

// finder answers with defs for Python and err for the rest, and counts
// its calls.
type finder struct {
	defs  []codedef.Def
	err   error
	calls int
}

func (f *finder) Defs(_ context.Context, lang string, src []byte) ([]codedef.Def, error) {
	f.calls++
	if lang != "python" {
		return nil, errors.New("unsupported")
	}
	return f.defs, f.err
}

// TestDocCutsCodeAlongFoundDefs: with a DefFinder, code is cut along the
// definitions it finds (the class split at its methods), each chunk
// names its first definition and lists those it holds at their file lines
// (the Doc's line offset added).
func TestDocCutsCodeAlongFoundDefs(t *testing.T) {
	doc := &mirror.Doc{Parser: "code@3", Lang: "python", Text: pySrc, LineOffset: 2}
	f := &finder{defs: pyDefs}
	got, fallback := Doc(t.Context(), "store.py", doc, Options{Chunk: chunk.Options{Size: 60, Syntax: true}, Defs: f})
	if fallback != nil {
		t.Fatalf("fallback %v from a finder that found the definitions", fallback)
	}
	type row struct {
		Lines   [2]int
		Section string
		Defs    []backend.ChunkDef
	}
	var rows []row
	for _, c := range got {
		rows = append(rows, row{[2]int{c.StartLine, c.EndLine}, c.Section, c.Defs})
	}
	want := []row{
		{[2]int{3, 5}, "class Store", []backend.ChunkDef{{Name: "Store", Kind: "class", Line: 3}, {Name: "get", Kind: "method", Line: 4}}},
		{[2]int{7, 8}, "class Store > def put", []backend.ChunkDef{{Name: "put", Kind: "method", Line: 7}}},
		{[2]int{11, 12}, "def main", []backend.ChunkDef{{Name: "main", Kind: "function", Line: 11}}},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Fatalf("chunks (-want +got):\n%s", diff)
	}
	if f.calls != 1 {
		t.Fatalf("finder called %d times, want once", f.calls)
	}
}

// TestDocFallsBackWithoutDefs: a finder that fails leaves the file to the
// chunker's own rules, as no finder does; prose is never given to it.
func TestDocFallsBackWithoutDefs(t *testing.T) {
	doc := &mirror.Doc{Parser: "code@3", Lang: "python", Text: pySrc}
	o := Options{Chunk: chunk.Options{Size: 60, Syntax: true}}
	want, _ := Doc(t.Context(), "store.py", doc, o)
	tooDeep := errors.New("too deep")
	f := &finder{defs: pyDefs, err: tooDeep}
	o.Defs = f
	got, fallback := Doc(t.Context(), "store.py", doc, o)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("a failing finder changed the chunks (-none +failing):\n%s", diff)
	}
	if !errors.Is(fallback, tooDeep) {
		t.Fatalf("fallback = %v, want the finder's error", fallback)
	}
	if len(want) == 0 || want[0].Defs[0].Name != "Store" {
		t.Fatalf("the rules found no definitions: %+v", want)
	}
	Doc(t.Context(), "a.md", &mirror.Doc{Parser: "markdown@3", Lang: "markdown", Text: "# Title\n\ntext\n"}, o)
	if f.calls != 1 {
		t.Fatalf("finder called %d times, want once (for the code only)", f.calls)
	}
}

// langFinder records the languages it is asked for.
type langFinder struct{ langs []string }

func (f *langFinder) Defs(_ context.Context, lang string, _ []byte) ([]codedef.Def, error) {
	f.langs = append(f.langs, lang)
	return nil, nil
}

// TestDocAsksByExtension: the finder is asked for the syntax parser's
// language of the file's name (codedef.Syntax), not the mirror's: a
// .tsx file, which the mirror calls typescript, is read as TSX, a .h file
// as C++; a language no parser reads is never asked for.
func TestDocAsksByExtension(t *testing.T) {
	f := &langFinder{}
	o := Options{Chunk: chunk.Options{Syntax: true}, Defs: f}
	for _, c := range []struct{ path, lang string }{
		{"ui/App.tsx", "typescript"}, {"src/uv.h", "c"}, {"build.kts", "kotlin"}, {"x.mjs", "javascript"},
		{"stubs/os.pyi", "python"}, {"run.sh", "shell"}, {"Rakefile", "ruby"}, {"q.sql", "sql"},
	} {
		if _, err := Doc(t.Context(), c.path, &mirror.Doc{Parser: "code@3", Lang: c.lang, Text: "x\n"}, o); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"tsx", "cpp", "kotlin", "javascript", "python", "bash", "ruby"}
	if diff := cmp.Diff(want, f.langs); diff != "" {
		t.Fatalf("languages asked (-want +got):\n%s", diff)
	}
}

// TestDocSyntaxOff: without Chunk.Syntax the finder is never asked, and
// code is cut by the chunker's own rules.
func TestDocSyntaxOff(t *testing.T) {
	called := 0
	f := DefFunc(func(ctx context.Context, lang string, src []byte) ([]codedef.Def, error) {
		called++
		return nil, nil
	})
	doc := &mirror.Doc{Parser: "code@3", Lang: "python", Text: pySrc}
	if _, fallback := Doc(t.Context(), "store.py", doc, Options{Chunk: chunk.Options{Size: 60}, Defs: f}); fallback != nil || called != 0 {
		t.Fatalf("finder called %d times (fallback %v), want never", called, fallback)
	}
}
