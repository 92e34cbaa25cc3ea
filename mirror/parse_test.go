package mirror

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/codedef"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		path string
		raw  string
		want Doc
	}{
		{"plain", "notes.txt", "hello\nworld\n", Doc{Parser: "text@3", Lang: "text", Text: "hello\nworld\n"}},
		{"unknown extension is text", "data.weird", "x", Doc{Parser: "text@3", Lang: "text", Text: "x"}},
		{"crlf and cr", "a.txt", "one\r\ntwo\rthree\r\n", Doc{Parser: "text@3", Lang: "text", Text: "one\ntwo\nthree\n"}},
		{"utf-8 bom", "a.txt", "\uFEFFhi", Doc{Parser: "text@3", Lang: "text", Text: "hi"}},
		{"invalid utf-8 is windows-1252", "a.txt", "a\xffb\xc3", Doc{Parser: "text@3", Lang: "text", Text: "aÿbÃ", Fields: []Field{{Key: "encoding", Value: "windows-1252"}}}},
		{"nfd to nfc", "a.txt", "cafe\u0301", Doc{Parser: "text@3", Lang: "text", Text: "caf\u00e9"}},
		{"utf-16le with bom", "a.txt", "\xff\xfeh\x00i\x00", Doc{Parser: "text@3", Lang: "text", Text: "hi", Fields: []Field{{Key: "encoding", Value: "utf-16le"}}}},
		{"utf-16be without bom", "a.txt", "\x00h\x00i\x00!\x00\n", Doc{Parser: "text@3", Lang: "text", Text: "hi!\n", Fields: []Field{{Key: "encoding", Value: "utf-16be"}}}},
		{"go code", "src/main.go", "package main\r\n", Doc{Parser: "code@3+go@" + codedef.GoVersion, Lang: "go", Text: "package main\n"}},
		{"python code", "x.PY", "print()", Doc{Parser: "code@3+python@" + codedef.Version("python"), Lang: "python", Text: "print()"}},
		{"makefile", "sub/Makefile", "all:", Doc{Parser: "code@3", Lang: "make", Text: "all:"}},
		{
			"markdown heading title", "README.md", "intro\n# The Title #\ntext",
			Doc{Parser: "markdown@3", Lang: "markdown", Title: "The Title", Text: "intro\n# The Title #\ntext"},
		},
		{
			"heading inside fence is not a title", "a.md", "```sh\n# comment\n```\n# Real",
			Doc{Parser: "markdown@3", Lang: "markdown", Title: "Real", Text: "```sh\n# comment\n```\n# Real"},
		},
		{
			"frontmatter", "post.markdown", "---\r\ntitle: Hello  World\r\ntags: [go, search, go]\r\n---\r\n# Heading\r\nbody\r\n",
			Doc{Parser: "markdown@3", Lang: "markdown", Title: "Hello World", Tags: []string{"go", "search"}, LineOffset: 4, Text: "# Heading\nbody\n", Fields: []Field{{Key: "title", Value: "Hello World"}}},
		},
		{
			"frontmatter tags string and keywords", "p.mdx", "---\ntags: a, b c\nkeywords: [z]\n...\nbody",
			Doc{Parser: "markdown@3", Lang: "markdown", Tags: []string{"a", "b c", "z"}, LineOffset: 4, Text: "body"},
		},
		{
			"frontmatter space separated tags", "p.md", "---\ntags: x y\n---\n",
			Doc{Parser: "markdown@3", Lang: "markdown", Tags: []string{"x", "y"}, LineOffset: 3, Text: ""},
		},
		{
			"malformed frontmatter kept out of body", "p.md", "---\ntitle: [unclosed\n---\n# Fallback\n",
			Doc{Parser: "markdown@3", Lang: "markdown", Title: "Fallback", LineOffset: 3, Text: "# Fallback\n"},
		},
		{
			"no closing fence is a thematic break", "p.md", "---\ntitle: x\n",
			Doc{Parser: "markdown@3", Lang: "markdown", Text: "---\ntitle: x\n"},
		},
		{
			"non-string title", "p.md", "---\ntitle: 2024\n---\n",
			Doc{Parser: "markdown@3", Lang: "markdown", Title: "2024", LineOffset: 3, Fields: []Field{{Key: "title", Value: "2024"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.path, []byte(tt.raw))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(&tt.want, got); diff != "" {
				t.Errorf("Parse(%q) mismatch (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

// TestParseLineOffset checks the contract the engine relies on: a line of
// Text maps back to the same line of the source file.
func TestParseLineOffset(t *testing.T) {
	src := "---\ntitle: T\ntags:\n  - a\n---\nfirst\nsecond\nneedle\n"
	d, err := Parse("a.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	srcLines := strings.Split(src, "\n")
	for i, line := range strings.Split(d.Text, "\n") {
		if line == "" {
			continue
		}
		if got := srcLines[d.LineOffset+i]; got != line {
			t.Errorf("text line %d %q maps to source line %q", i+1, line, got)
		}
	}
}

func TestParseBinary(t *testing.T) {
	tests := []struct {
		name string
		path string
		raw  []byte
		want bool
	}{
		{"nul early", "a.txt", []byte("abc\x00def"), true},
		{"nul after 8 KiB is text", "a.txt", append([]byte(strings.Repeat("a", sniffLen)), 0), false},
		{"binary extension", "a.png", []byte("not really"), true},
		{"nul in odd and even bytes", "a.txt", []byte("h\x00\x00i\x00\x00j"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.path, tt.raw)
			if got := errors.Is(err, ErrBinary); got != tt.want {
				t.Errorf("Parse error = %v, binary want %v", err, tt.want)
			}
		})
	}
}

func TestParserFor(t *testing.T) {
	tests := []struct {
		path   string
		parser string
		ok     bool
	}{
		{"a.md", "markdown@3", true},
		{"A.MARKDOWN", "markdown@3", true},
		{"x/y.mdx", "markdown@3", true},
		{"main.go", "code@3+go@" + codedef.GoVersion, true},
		{"lib.rs", "code@3+rust@" + codedef.Version("rust"), true},
		{"ui/App.tsx", "code@3+tsx@" + codedef.Version("tsx"), true},
		{"api.ts", "code@3+typescript@" + codedef.Version("typescript"), true},
		{"uv.h", "code@3+cpp@" + codedef.Version("cpp"), true},
		{"uv.c", "code@3+c@" + codedef.Version("c"), true},
		{"Rakefile", "code@3+ruby@" + codedef.Version("ruby"), true},
		{"run.zsh", "code@3", true},
		{"conf.yaml", "code@3", true},
		{"Dockerfile", "code@3", true},
		{"notes.txt", "text@3", true},
		{"LICENSE", "text@3", true},
		{".gitignore", "text@3", true},
		{"photo.JPG", "", false},
		{"lib.so", "", false},
		{"archive.tar.gz", "", false},
		{"font.woff2", "", false},
		{"doc.pdf", "pdf@3", true},
		{"old.doc", "", false},
		{"page.html", "html@3", true},
		{"mail.eml", "eml@4", true},
	}
	for _, tt := range tests {
		parser, ok := ParserFor(tt.path)
		if parser != tt.parser || ok != tt.ok {
			t.Errorf("ParserFor(%q) = %q, %v; want %q, %v", tt.path, parser, ok, tt.parser, tt.ok)
		}
	}
}

func TestDocEncodeDecode(t *testing.T) {
	docs := []*Doc{
		{},
		{Parser: "markdown@3", Title: "T", Tags: []string{"a", "b"}, Lang: "markdown", LineOffset: 7, Text: "body é\n"},
		{Parser: "code@3", Lang: "go", Text: strings.Repeat("x", 300)},
		{Parser: "pdf@3", Lang: "pdf", Text: "a\nb\n", Fields: []Field{{Key: "author", Value: "Ada"}}, Parts: []Part{{Line: 0, Page: 1, Kind: "text"}, {Line: 1, Section: "S", Page: 2, Kind: "text", Attachment: "a.pdf"}}},
		{Parser: "eml@4", Lang: "email", Text: "a\nb\n", Parts: []Part{{Line: 0, Kind: "text"}, {Line: 1, Page: 1, Kind: "text", Attachment: "a.pdf"}},
			Attachments: []Attachment{{Name: "a.pdf", Parser: "pdf@3", Title: "A", Lang: "pdf", Tags: []string{"x"}, Fields: []Field{{Key: "author", Value: "Ada"}}}, {Name: "b.txt", Parser: "text@3"}}},
	}
	for _, d := range docs {
		b := d.Encode()
		got, err := DecodeDoc(b)
		if err != nil {
			t.Fatalf("DecodeDoc: %v", err)
		}
		if diff := cmp.Diff(d, got); diff != "" {
			t.Errorf("round trip mismatch (-want +got):\n%s", diff)
		}
		if got.TextHash() != d.TextHash() || d.TextHash() != HashBytes(b) {
			t.Errorf("TextHash differs after round trip")
		}
	}
}

func TestDecodeDocRejects(t *testing.T) {
	good := (&Doc{Parser: "text@3", Lang: "text", Text: "hello"}).Encode()
	tests := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("XXXX"), good[4:]...)},
		{"future version", append(append([]byte("ARMD"), 5), good[5:]...)},
		{"version 3", append(append([]byte("ARMD"), 3), good[5:]...)},
		{"version 1", append(append([]byte("ARMD"), 1), good[5:]...)},
		{"version 2", append(append([]byte("ARMD"), 2), good[5:]...)},
		{"truncated", good[:len(good)-1]},
		{"trailing", append(append([]byte{}, good...), 0)},
		{"overlong varint", append(append([]byte("ARMD\x04"), 0x80, 0x00), good[6:]...)},
	}
	for _, tt := range tests {
		if _, err := DecodeDoc(tt.b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: DecodeDoc error = %v, want ErrCorrupt", tt.name, err)
		}
	}
}

func TestHashString(t *testing.T) {
	h := HashBytes([]byte("abc"))
	// BLAKE3-256("abc") from the reference test vectors.
	const want = "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"
	if h.String() != want {
		t.Errorf("HashBytes(abc) = %s, want %s", h, want)
	}
}

func TestTypeOfDataFormats(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"faq.yaml", TypeData}, {"a.json", TypeData}, {"Cargo.toml", TypeData}, {"pom.xml", TypeData},
		{"main.go", TypeCode}, {"README.md", TypeDoc}, {"report.pdf", TypePDF},
	} {
		d, err := Parse(tt.path, []byte("x: 1\n"))
		if err != nil && tt.want != TypePDF {
			t.Fatal(err)
		}
		parser, _ := ParserFor(tt.path)
		lang := ""
		if d != nil {
			lang = d.Lang
		}
		if got := TypeOf(parser, lang); got != tt.want {
			t.Errorf("%s: type %s, want %s", tt.path, got, tt.want)
		}
	}
}
