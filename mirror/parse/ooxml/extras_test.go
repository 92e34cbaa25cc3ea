package ooxml

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/mirror/internal/parsetest"
	"github.com/autorag/autorag/mirror/parse"
)

func realFile(t *testing.T, p parse.Parser, name string) *parse.Doc {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "formats", name))
	if err != nil {
		t.Fatal(err)
	}
	return parsetest.Parse(t, p, name, data)
}

// partText is the text of the part labelled section, "" when there is none.
func partText(d *parse.Doc, section string) string {
	lines := strings.Split(d.Text, "\n")
	for i, p := range d.Parts {
		if p.Section != section {
			continue
		}
		end := len(lines)
		if i+1 < len(d.Parts) {
			end = d.Parts[i+1].Line
		}
		return strings.Join(lines[p.Line:end], "\n")
	}
	return ""
}

// A LibreOffice document with a header, a footer, a footnote and an endnote.
func TestDOCXHeadersFootersAndNotes(t *testing.T) {
	d := realFile(t, DOCX{}, "runbook-libreoffice.docx")
	if h := partText(d, headersLabel); !strings.Contains(h, "Confidential: operations handbook, revision seven") ||
		!strings.Contains(h, "Owned by the storage on-call rotation") {
		t.Errorf("headers and footers part = %q", h)
	}
	if n := partText(d, notesLabel); !strings.Contains(n, "The standby controller takes over within ninety seconds.") ||
		!strings.Contains(n, "Journal replay times are logged by the kestrel daemon.") {
		t.Errorf("notes part = %q", n)
	}
	if body := partText(d, ""); strings.Contains(body, "kestrel") || strings.Contains(body, "Confidential") {
		t.Errorf("body holds notes or headers: %q", body)
	}
}

// The footer of report-libreoffice.docx is only a PAGE field: its result
// ("1") is not text of the document.
func TestDOCXFieldResultsOfFootersLeftOut(t *testing.T) {
	d := realFile(t, DOCX{}, "report-libreoffice.docx")
	for _, p := range d.Parts {
		if p.Section == headersLabel {
			t.Fatalf("a footer of only a page number became a part: %q", partText(d, headersLabel))
		}
	}
}

// LibreOffice's notes slides: the body placeholder is the notes; the slide
// image and slide number placeholders are not.
func TestPPTXSpeakerNotes(t *testing.T) {
	d := realFile(t, PPTX{}, "drill-notes-libreoffice.pptx")
	s2, s3 := partText(d, "Slide 2: Drill plan"), partText(d, "Slide 3: Results")
	if !strings.Contains(s2, "Speaker notes:\nRemind everyone that the drill runs on the staging cluster only.") {
		t.Errorf("slide 2 = %q", s2)
	}
	if !strings.Contains(s3, "ask the kestrel team why") || strings.Contains(s3, "Remind everyone") {
		t.Errorf("slide 3 = %q", s3)
	}
	if s1 := partText(d, "Slide 1: Failover drill"); strings.Contains(s1, "Speaker notes") {
		t.Errorf("slide 1 has no notes: %q", s1)
	}
}

func TestPartNumber(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		ok   bool
	}{
		{"ppt/slides/slide12.xml", 12, true},
		{"ppt/slides/slide.xml", 0, false},
		{"ppt/slides/slide1a.xml", 0, false},
		{"ppt/slides/slide3.xml.rels", 0, false},
		{"3.xml", 0, false},
		{"ppt/notesSlides/notesSlide3.xml", 0, false},
	} {
		if n, ok := partNumber(c.name, "ppt/slides/slide"); n != c.n || ok != c.ok {
			t.Errorf("partNumber(%q) = %d, %v; want %d, %v", c.name, n, ok, c.n, c.ok)
		}
	}
}
