package engine

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/chunk"
	"github.com/autorag/autorag/engine/codedef"
	"github.com/autorag/autorag/engine/split"
	"github.com/autorag/autorag/engine/syntax"
	"github.com/autorag/autorag/mirror"
)

var updateChunks = flag.Bool("update-chunks", false, "rewrite the goldens under testdata/chunks")

// samplesDir holds one source file per language the syntax parsers read
// (engine/syntax's golden samples).
const samplesDir = "syntax/testdata/samples"

// goldenSize is the chunk size of the goldens: small enough that the
// samples' classes split at their members.
const goldenSize = 300

// TestChunkGoldens: every sample, mirrored and split as a refresh does
// (mirror.Parse, then split.Doc with the refresh's options: tree-sitter,
// or go/parser for Go), is cut into the chunks its golden lists — lines,
// section, definitions — without a parser failure, at goldenSize.
func TestChunkGoldens(t *testing.T) {
	samples := sampleFiles(t)
	for _, path := range samples {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, doc := mirrorSample(t, path)
			docs := splitSample(t, path, doc, goldenSize)
			checkDefsWhole(t, path, src, docs, goldenSize)
			got := renderDocs(docs)
			golden := filepath.Join("testdata", "chunks", filepath.Base(path)+".golden")
			if *updateChunks {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("chunks of %s differ from %s (go test -run TestChunkGoldens -update-chunks rewrites it)\ngot:\n%s\nwant:\n%s", path, golden, got, want)
			}
		})
	}
	seen := map[string]bool{}
	for _, path := range samples {
		lang, _ := codedef.Syntax(path)
		seen[lang] = true
	}
	for _, l := range syntax.Languages() {
		if !seen[l] {
			t.Errorf("no sample under %s for %s", samplesDir, l)
		}
	}
}

// TestChunksKeepDefinitions: at any size, a definition of a sample that
// fits the size lies whole in one chunk, and every named definition is
// listed by a chunk.
func TestChunksKeepDefinitions(t *testing.T) {
	for _, path := range sampleFiles(t) {
		src, doc := mirrorSample(t, path)
		for _, size := range []int{80, 150, 300, 600, chunk.DefaultSize} {
			checkDefsWhole(t, fmt.Sprintf("%s at %d", path, size), src, splitSample(t, path, doc, size), size)
		}
	}
}

func sampleFiles(t *testing.T) []string {
	t.Helper()
	samples, err := filepath.Glob(filepath.Join(samplesDir, "*"))
	if err != nil || len(samples) == 0 {
		t.Fatalf("samples: %v, %d found", err, len(samples))
	}
	return samples
}

// mirrorSample reads a sample and mirrors it as a scan does.
func mirrorSample(t *testing.T, path string) ([]byte, *mirror.Doc) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := mirror.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	if lang, v := codedef.Syntax(path); !strings.HasSuffix(doc.Parser, "+"+lang+"@"+v) {
		t.Fatalf("%s: parser %q does not name its syntax parser %s@%s", path, doc.Parser, lang, v)
	}
	return src, doc
}

// splitSample cuts a mirrored sample into chunks of size runes as a
// refresh does; a parser failure fails the test.
func splitSample(t *testing.T, path string, doc *mirror.Doc, size int) []*backend.Chunk {
	t.Helper()
	s := DefaultSettings()
	s.Chunk = chunk.Options{Size: size, Overlap: size / 10, Syntax: true}
	docs, fallback := split.Doc(t.Context(), filepath.Base(path), doc, s.split())
	if fallback != nil {
		t.Fatalf("%s: syntax parser failed: %v", path, fallback)
	}
	return docs
}

// checkDefsWhole fails t when a definition the file's parser finds, and
// that fits size runes, is cut across chunks, or a named one is listed by
// no chunk.
func checkDefsWhole(t *testing.T, name string, src []byte, docs []*backend.Chunk, size int) {
	t.Helper()
	defs := parseSample(t, name, src)
	lines := strings.Split(string(src), "\n")
	listed := map[string]bool{}
	for _, c := range docs {
		for _, d := range c.Defs {
			listed[d.Name] = true
		}
	}
	for _, d := range defs {
		s, e := d.StartLine, d.EndLine
		for s <= e && strings.TrimSpace(lines[s-1]) == "" {
			s++
		}
		for e >= s && strings.TrimSpace(lines[e-1]) == "" {
			e--
		}
		if s > e {
			continue
		}
		if d.Name != "" && !listed[d.Name] {
			t.Errorf("%s: definition %s (%s, lines %d-%d) is listed by no chunk", name, d.Name, d.Kind, d.StartLine, d.EndLine)
		}
		if len([]rune(strings.Join(lines[s-1:e], "\n"))) > size {
			continue
		}
		whole := false
		for _, c := range docs {
			whole = whole || c.StartLine <= s && e <= c.EndLine
		}
		if !whole {
			t.Errorf("%s: definition %q (lines %d-%d) fits %d runes but is cut", name, d.Label, d.StartLine, d.EndLine, size)
		}
	}
}

// parseSample returns the definitions of a sample as the refresh's
// parser finds them (go/parser for Go).
func parseSample(t *testing.T, name string, src []byte) []codedef.Def {
	t.Helper()
	path := strings.Fields(name)[0]
	lang, _ := codedef.Syntax(path)
	var defs []codedef.Def
	var err error
	if lang == codedef.Go {
		defs, err = codedef.ParseGo(src)
	} else {
		defs, err = syntax.Parse(t.Context(), lang, src)
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return defs
}

// renderDocs prints each chunk's lines and section, then its definitions.
func renderDocs(docs []*backend.Chunk) string {
	var b strings.Builder
	for _, c := range docs {
		fmt.Fprintf(&b, "%d-%d %s\n", c.StartLine, c.EndLine, c.Section)
		for _, d := range c.Defs {
			fmt.Fprintf(&b, "  %s %s %d\n", d.Kind, d.Name, d.Line)
		}
	}
	return b.String()
}
