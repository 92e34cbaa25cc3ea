package chunk

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// benchMarkdown returns a ~5.7 KB markdown document: a title, four sections
// and 40 paragraphs, like the generated corpus in the design findings.
func benchMarkdown() string {
	var b strings.Builder
	b.WriteString("# Document 00042\n\n")
	for p := range 40 {
		if p%10 == 0 {
			fmt.Fprintf(&b, "## Section %d\n\n", p/10+1)
		}
		fmt.Fprintf(&b, "Paragraph %d discusses the retrieval of passages from a local folder, "+
			"ranking with BM25 and a small dense model, and keeping the index fresh.\n\n", p)
	}
	return b.String()
}

// benchCode returns a ~100 KB Go-like source file of small functions.
func benchCode() string {
	var b strings.Builder
	b.WriteString("package bench\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n")
	for i := 0; b.Len() < 100<<10; i++ {
		fmt.Fprintf(&b, "// handle%d processes one request of kind %d.\n", i, i)
		fmt.Fprintf(&b, "func handle%d(req *Request, w Writer) error {\n", i)
		b.WriteString("\tname := strings.TrimSpace(req.Name)\n\tif name == \"\" {\n\t\treturn fmt.Errorf(\"empty name\")\n\t}\n\n")
		b.WriteString("\tfor _, item := range req.Items {\n\t\tw.Write(item)\n\t}\n\treturn nil\n}\n\n")
	}
	return b.String()
}

func BenchmarkSplit(b *testing.B) {
	inputs := []struct {
		name, kind, text string
	}{
		{"markdown-5.7KB", KindMarkdown, benchMarkdown()},
		{"code-100KB", KindCode, benchCode()},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			b.ReportAllocs()
			for b.Loop() {
				Split(in.kind, in.text, Options{})
			}
		})
	}
}

func TestBenchInputs(t *testing.T) {
	mdText, code := benchMarkdown(), benchCode()
	if n := len(mdText); n < 5400 || n > 6000 {
		t.Fatalf("markdown bench input is %d bytes, want about 5.7 KB", n)
	}
	if n := len(code); n < 100<<10 || n > 101<<10 {
		t.Fatalf("code bench input is %d bytes, want about 100 KB", n)
	}
	checkChunks(t, mdText, Options{}, Split(KindMarkdown, mdText, Options{}))
	checkChunks(t, code, Options{}, Split(KindCode, code, Options{}))
}

// BenchmarkSplitLang measures code chunking by language on this package's
// own source read as generic code, Python and Rust (the heuristic's cost
// per line), and on one of its files as Go (go/parser).
func BenchmarkSplitLang(b *testing.B) {
	var src strings.Builder
	for _, f := range []string{"pack.go", "cut.go", "markdown.go", "code_heur.go"} {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		src.Write(data)
		src.WriteString("\n")
	}
	for _, lang := range []string{"", "go", "python", "rust"} {
		text := src.String()
		if lang == "go" {
			text = text[:strings.Index(text[1:], "package chunk")+1]
		}
		b.Run("lang="+lang, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				SplitLang(KindCode, lang, text, Options{})
			}
		})
	}
}
