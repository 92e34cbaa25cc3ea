package pdf

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/mirror/internal/parsetest"
	"github.com/autorag/autorag/mirror/parse"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../testdata/formats", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPagesAndProperties(t *testing.T) {
	d, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: read(t, "report-libreoffice.pdf")})
	if err != nil {
		t.Fatal(err)
	}
	parsetest.Check(t, d)
	if len(d.Parts) != 2 || d.Parts[0].Page != 1 || d.Parts[1].Page != 2 {
		t.Fatalf("parts = %+v, want pages 1 and 2", d.Parts)
	}
	lines := strings.Split(d.Text, "\n")
	page2 := strings.Join(lines[d.Parts[1].Line:], "\n")
	if !strings.Contains(page2, "Certificate expiry") || strings.Contains(page2, "Disk controller failure") {
		t.Errorf("page 2 holds the wrong text: %q", page2)
	}
	if d.Title != "Quarterly Reliability Report" {
		t.Errorf("title = %q", d.Title)
	}
	found := false
	for _, f := range d.Fields {
		found = found || f.Key == "author" && f.Value == "Ada Lovelace"
	}
	if !found {
		t.Errorf("no author field in %+v", d.Fields)
	}
}

func TestEncryptedAndCorrupt(t *testing.T) {
	_, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: read(t, "report-encrypted.pdf")})
	if !errors.Is(err, parse.ErrEncrypted) {
		t.Errorf("encrypted: err = %v, want ErrEncrypted", err)
	}
	good := read(t, "report-ghostscript.pdf")
	for name, data := range map[string][]byte{
		"truncated": good[:len(good)/2],
		"garbage":   []byte("%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF"),
		"empty":     nil,
	} {
		d, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: data})
		switch {
		case err != nil && !errors.Is(err, parse.ErrMalformed):
			t.Errorf("%s: err = %v, want ErrMalformed", name, err)
		case err == nil:
			parsetest.Check(t, d) // PDFium repairs some damage; what it reads must be sane
		}
	}
}

func BenchmarkPDF(b *testing.B) {
	data := read(b, "report-gropdf.pdf")
	if _, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: data}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: data}); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzPDF(f *testing.F) {
	f.Add(read(f, "report-gropdf.pdf"))
	f.Add([]byte("%PDF-1.4\n%%EOF"))
	if err := (Parser{}).Warm(context.Background()); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		parsetest.Parse(t, Parser{}, "f.pdf", data)
	})
}
