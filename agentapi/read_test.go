package agentapi

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/internal/indextest"
	"github.com/autorag/autorag/mirror"
)

func TestReadLines(t *testing.T) {
	a := newAPI(t)
	outside := t.TempDir()
	indextest.WriteTree(t, outside, map[string]string{"x.md": "# outside\n"})
	if err := os.Symlink("docs/boat.md", filepath.Join(a.Root(), "boat-link.md")); err != nil {
		t.Fatal(err)
	}
	indextest.WriteTree(t, a.Root(), map[string]string{"crlf.txt": "one\r\ntwo\r\nthree"})
	for _, tt := range []struct {
		req  ReadRequest
		want ReadResult
	}{
		{ReadRequest{Path: "docs/boat.md"}, ReadResult{Lines: [2]int{1, 3}, TotalLines: 3,
			Text: "# Boats\n\nA boat on the river carries the heron upstream.\n"}},
		{ReadRequest{Path: "docs/boat.md", Start: 3, End: 3}, ReadResult{Lines: [2]int{3, 3}, TotalLines: 3,
			Text: "A boat on the river carries the heron upstream.\n"}},
		// Frontmatter is not indexed: lines start after it, numbered as in the source.
		{ReadRequest{Path: "a.md", Start: 1, End: 6}, ReadResult{Lines: [2]int{5, 6}, TotalLines: 11,
			Text: "# Alpha\n\n"}},
		{ReadRequest{Path: "a.md", Start: 11, End: 40}, ReadResult{Lines: [2]int{11, 11}, TotalLines: 11,
			Text: "The heron sleeps by the river.\n"}},
		// A range with no indexed line is empty and says why, never inverted.
		{ReadRequest{Path: "a.md", Start: 12}, ReadResult{Outcome: "empty", TotalLines: 11, Note: "the file ends at line 11"}},
		{ReadRequest{Path: "a.md", Start: 99999999}, ReadResult{Outcome: "empty", TotalLines: 11, Note: "the file ends at line 11"}},
		{ReadRequest{Path: "a.md", Start: 1, End: 3}, ReadResult{Outcome: "empty", TotalLines: 11,
			Note: "lines 1-4 are front matter, which is not indexed: the text starts at line 5"}},
		// A symlink to a file inside the root reads the file, as indexing does.
		{ReadRequest{Path: "boat-link.md", Start: 1, End: 1}, ReadResult{Lines: [2]int{1, 1}, TotalLines: 3, Text: "# Boats\n"}},
		// Text as indexed: line ends normalized.
		{ReadRequest{Path: "crlf.txt", Start: 2}, ReadResult{Lines: [2]int{2, 3}, TotalLines: 3, Text: "two\nthree"}},
	} {
		got, err := a.Read(t.Context(), tt.req)
		if err != nil {
			t.Errorf("%+v: %v", tt.req, err)
			continue
		}
		tt.want.OK, tt.want.Path = true, tt.req.Path
		if tt.want.Outcome == "" {
			tt.want.Outcome = "ok"
		}
		if d := cmp.Diff(&tt.want, got); d != "" {
			t.Errorf("%+v (-want +got):\n%s", tt.req, d)
		}
	}
}

func TestReadRefuses(t *testing.T) {
	a := newAPI(t)
	root := a.Root()
	outside := t.TempDir()
	indextest.WriteTree(t, outside, map[string]string{"x.md": "# outside secret\n", "dir/y.md": "# outside dir\n"})
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(filepath.Join(outside, "x.md"), "out.md")           // a file outside, by absolute path
	link("../"+filepath.Base(outside)+"/x.md", "rel-out.md") // the same, relative
	link(filepath.Join(outside, "dir"), "outdir")            // a directory outside
	link("docs", "docs-link")                                // a directory inside: not followed either
	link(filepath.Join(root, ".autorag", "fingerprint.json"), "sidecar.json")
	link("missing.md", "dangling.md")
	for _, tt := range []struct {
		path string
		code string
	}{
		{"../" + filepath.Base(outside) + "/x.md", CodeRefused},
		{"docs/../../x.md", CodeRefused},
		{"docs/../a.md", CodeRefused},
		{"./a.md", CodeRefused},
		{"docs//boat.md", CodeRefused},
		{filepath.Join(root, "a.md"), CodeRefused},
		{"/etc/passwd", CodeRefused},
		{"out.md", CodeRefused},
		{"rel-out.md", CodeRefused},
		{"outdir/y.md", CodeRefused},
		{"docs-link/boat.md", CodeRefused},
		{"sidecar.json", CodeRefused},
		{"dangling.md", CodeRefused},
		{".autorag/fingerprint.json", CodeRefused},
		{".git/config", CodeRefused},
		{"secret.txt", CodeRefused},
		{"build/out.md", CodeRefused},
		{"data.bin", CodeRefused},
		{"dump.dat", CodeRefused},
		{"docs", CodeRefused},
		{"", CodeRefused},
		{"nope.md", CodeNotFound},
		{"nodir/nope.md", CodeNotFound},
	} {
		got, err := a.Read(t.Context(), ReadRequest{Path: tt.path})
		if err == nil {
			t.Errorf("read %q: allowed, returned %q", tt.path, got.Text)
			continue
		}
		if c := Code(err); c != tt.code {
			t.Errorf("read %q: code %s (%v), want %s", tt.path, c, err, tt.code)
		}
		if tt.code == CodeRefused && !errors.Is(err, mirror.ErrNotSource) {
			t.Errorf("read %q: %v does not wrap ErrNotSource", tt.path, err)
		}
	}
	// Bad ranges are the caller's error.
	for _, r := range []ReadRequest{{Path: "a.md", Start: 5, End: 4}, {Path: "a.md", Start: 1, End: maxReadLines + 1}, {Path: "a.md", Start: -1}} {
		if _, err := a.Read(t.Context(), r); Code(err) != "usage" {
			t.Errorf("%+v: %v, want a usage error", r, err)
		}
	}
}

// A PDF is read from its mirror (no parse) and the answer names the pages
// the lines are on.
func TestReadPDFPages(t *testing.T) {
	a := newAPI(t)
	pdf, err := os.ReadFile("../mirror/testdata/formats/report-libreoffice.pdf")
	if err != nil {
		t.Fatal(err)
	}
	indextest.WriteTree(t, a.Root(), map[string]string{"report.pdf": string(pdf)})
	if _, err := a.Refresh(t.Context(), RefreshRequest{}); err != nil {
		t.Fatal(err)
	}
	whole, err := a.Read(t.Context(), ReadRequest{Path: "report.pdf", Start: 1, End: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Pages == nil || *whole.Pages != [2]int{1, 2} {
		t.Fatalf("pages of the whole PDF = %v, want [1 2]", whole.Pages)
	}
	last, err := a.Read(t.Context(), ReadRequest{Path: "report.pdf", Start: whole.Lines[1], End: whole.Lines[1]})
	if err != nil || last.Pages == nil || *last.Pages != [2]int{2, 2} {
		t.Fatalf("last line: pages %v (%v), want [2 2]", last.Pages, err)
	}
	if md, _ := a.Read(t.Context(), ReadRequest{Path: "docs/boat.md"}); md.Pages != nil {
		t.Errorf("markdown read has pages %v", md.Pages)
	}
}

// BenchmarkReadPDF reads five lines of a PDF: from its mirror (as Read
// does) and by parsing it again (what Read did before).
func BenchmarkReadPDF(b *testing.B) {
	root := b.TempDir()
	pdf, err := os.ReadFile("../mirror/testdata/formats/report-libreoffice.pdf")
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "report.pdf"), pdf, 0o644); err != nil {
		b.Fatal(err)
	}
	e, err := engine.New(root, engine.DefaultSettings())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Refresh(b.Context(), engine.RefreshOptions{}); err != nil {
		b.Fatal(err)
	}
	a := New(e, Options{})
	defer a.Close()
	b.Run("mirror", func(b *testing.B) {
		for b.Loop() {
			if _, err := a.Read(b.Context(), ReadRequest{Path: "report.pdf", Start: 1, End: 5}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := mirror.ReadSource(b.Context(), root, "report.pdf", 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
