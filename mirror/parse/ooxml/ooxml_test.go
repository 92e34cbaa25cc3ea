package ooxml

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/autorag/autorag/mirror/internal/parsetest"
	"github.com/autorag/autorag/mirror/parse"
)

// zipOf builds an archive; each value is written through fill, so large
// parts are streamed rather than held in memory.
func zipOf(t testing.TB, parts map[string]func(io.Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, fill := range parts {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		fill(w)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func text(s string) func(io.Writer) { return func(w io.Writer) { io.WriteString(w, s) } }

const docxBody = `<w:document xmlns:w="w"><w:body>
<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Plan</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Ship the </w:t></w:r><w:r><w:t>fix.</w:t></w:r></w:p>
<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
</w:body></w:document>`

func TestDOCXHeadingsParagraphsTables(t *testing.T) {
	data := zipOf(t, map[string]func(io.Writer){
		"word/document.xml": text(docxBody),
		"docProps/core.xml": text(`<cp:coreProperties xmlns:cp="c" xmlns:dc="d"><dc:title>The plan</dc:title><dc:creator>Ada</dc:creator><cp:keywords>ops, plan</cp:keywords></cp:coreProperties>`),
	})
	d := parsetest.Parse(t, DOCX{}, "a.docx", data)
	if d == nil {
		t.Fatal("parse failed")
	}
	if want := "# Plan\n\nShip the fix.\n\na | b\n\n"; d.Text != want {
		t.Errorf("text = %q, want %q", d.Text, want)
	}
	if d.Title != "The plan" || strings.Join(d.Tags, "|") != "ops| plan" {
		t.Errorf("title %q tags %q", d.Title, d.Tags)
	}
}

// TestZipBombDOCX: a document.xml of 1 GiB (honestly declared, about
// 1 MB compressed) fails with ErrTooLarge once MaxUnpacked bytes are
// decompressed.
func TestZipBombDOCX(t *testing.T) {
	data := parsetest.Zip(t, map[string]parsetest.Part{"word/document.xml": {
		Prefix: []byte("<w:document><w:body><w:p><w:r><w:t>"), Unit: bytes.Repeat([]byte{' '}, 1<<20), N: 1 << 10}})
	lim := parse.Limits{MaxUnpacked: 4 << 20, Timeout: 2 * time.Minute} // the cap, not the deadline, must stop it
	_, err := parse.Run(context.Background(), DOCX{}, &parse.Input{Data: data, Limits: lim})
	if !errors.Is(err, parse.ErrTooLarge) {
		t.Fatalf("zip bomb (%d bytes compressed): err = %v, want ErrTooLarge", len(data), err)
	}
}

// bigSheet is an xlsx whose one sheet holds about mib MiB of rows.
func bigSheet(t testing.TB, mib int) []byte {
	row := `<row><c t="s"><v>0</v></c><c><v>12345</v></c><c t="inlineStr"><is><t>replication</t></is></c></row>`
	unit := bytes.Repeat([]byte(row), (1<<20)/len(row))
	return parsetest.Zip(t, map[string]parsetest.Part{
		"xl/workbook.xml":            {Prefix: []byte(`<workbook><sheets><sheet name="Data" r:id="rId1" xmlns:r="r"/></sheets></workbook>`)},
		"xl/_rels/workbook.xml.rels": {Prefix: []byte(`<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`)},
		"xl/sharedStrings.xml":       {Prefix: []byte(`<sst><si><t>disk</t></si></sst>`)},
		"xl/worksheets/sheet1.xml":   {Prefix: []byte("<worksheet><sheetData>"), Unit: unit, N: mib, Suffix: []byte("</sheetData></worksheet>")},
	})
}

// TestHundredMegabyteSpreadsheet: 100 MB of sheet XML (a few hundred KB on
// disk) fails with ErrTooLarge once the text cap is reached, not after
// reading and holding all of it.
func TestHundredMegabyteSpreadsheet(t *testing.T) {
	data := bigSheet(t, 100)
	_, err := parse.Run(context.Background(), XLSX{}, &parse.Input{Data: data, Limits: parse.Limits{MaxText: 1 << 20, Timeout: 2 * time.Minute}})
	if !errors.Is(err, parse.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	small := bigSheet(t, 0)
	d, err := parse.Run(context.Background(), XLSX{}, &parse.Input{Data: small})
	if err != nil || d.Text != "" || len(d.Parts) != 0 {
		t.Fatalf("empty sheet: %v %q", err, d.Text)
	}
}

func TestCorruptArchives(t *testing.T) {
	for _, p := range []parse.Parser{DOCX{}, PPTX{}, XLSX{}} {
		if _, err := parse.Run(context.Background(), p, &parse.Input{Data: []byte("PK\x03\x04 not a zip")}); !errors.Is(err, parse.ErrMalformed) {
			t.Errorf("%s: err = %v, want ErrMalformed", p.Name(), err)
		}
	}
}

func BenchmarkXLSX100MB(b *testing.B) {
	data := bigSheet(b, 100)
	b.SetBytes(100 << 20)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse.Run(context.Background(), XLSX{}, &parse.Input{Data: data, Limits: parse.Limits{MaxText: 256 << 20, MaxUnpacked: 256 << 20}}); err != nil {
			b.Fatal(err)
		}
	}
}

func fuzzSeeds(f *testing.F, glob string) {
	files, _ := os.ReadDir("../../testdata/formats")
	for _, e := range files {
		if strings.HasSuffix(e.Name(), glob) {
			if b, err := os.ReadFile("../../testdata/formats/" + e.Name()); err == nil {
				f.Add(b)
			}
		}
	}
}

func FuzzOOXML(f *testing.F) {
	fuzzSeeds(f, ".docx")
	fuzzSeeds(f, ".pptx")
	fuzzSeeds(f, ".xlsx")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range []parse.Parser{DOCX{}, PPTX{}, XLSX{}} {
			parsetest.Parse(t, p, "f", data)
		}
	})
}
