package mirror

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden mirrors in testdata/golden")

// TestGoldenMirrors parses every file in testdata/formats (made by
// LibreOffice, pandoc, groff, Ghostscript, qpdf, mutt and iconv) and
// compares the mirrored Doc, rendered as text, with testdata/golden.
// Run `go test ./mirror -run Golden -update` to rewrite them.
func TestGoldenMirrors(t *testing.T) {
	files, err := filepath.Glob("testdata/formats/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := renderDoc(Parse(name, raw))
			golden := filepath.Join("testdata/golden", name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("mirror of %s differs from %s:\n--- got ---\n%s", name, golden, got)
			}
		})
	}
}

// renderDoc prints a Doc (or the error) for a golden file: the metadata,
// then the text with a "=== part" line before each part.
func renderDoc(d *Doc, err error) string {
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "parser: %s\nlang: %s\ntitle: %s\ntags: %s\nline_offset: %d\n", d.Parser, d.Lang, d.Title, strings.Join(d.Tags, ", "), d.LineOffset)
	for _, f := range d.Fields {
		fmt.Fprintf(&sb, "field %s: %s\n", f.Key, f.Value)
	}
	for _, a := range d.Attachments {
		fmt.Fprintf(&sb, "attachment %q: parser %s, lang %s, title %q, tags %s\n", a.Name, a.Parser, a.Lang, a.Title, strings.Join(a.Tags, ", "))
		for _, f := range a.Fields {
			fmt.Fprintf(&sb, "attachment %q field %s: %s\n", a.Name, f.Key, f.Value)
		}
	}
	lines := strings.Split(d.Text, "\n")
	next := 0
	for i, l := range lines {
		for next < len(d.Parts) && d.Parts[next].Line == i {
			p := d.Parts[next]
			fmt.Fprintf(&sb, "=== part section=%q page=%d kind=%s", p.Section, p.Page, p.Kind)
			if p.Attachment != "" {
				fmt.Fprintf(&sb, " attachment=%q", p.Attachment)
			}
			sb.WriteString("\n")
			next++
		}
		if i == len(lines)-1 && l == "" {
			break
		}
		sb.WriteString("| " + l + "\n")
	}
	return sb.String()
}
