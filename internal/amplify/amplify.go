package amplify

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
)

// Input is one amplifier: a file name (whose extension picks the parser)
// and its bytes.
type Input struct {
	Name, File string
	Data       func() ([]byte, error)
}

// Inputs returns one amplifier per way a format can refer to the same text
// many times or expand it while decoding. The mail case attaches
// attachments workbooks that each expand to attachMiB MiB of text (one
// 1 MiB shared string in attachMiB rows): a caller picks them to sit just
// under its text cap.
func Inputs(attachments, attachMiB int) []Input {
	return []Input{
		{"xlsx shared string x cells", "row.xlsx", func() ([]byte, error) {
			return Sheet(`<row>`+strings.Repeat(`<c t="s"><v>0</v></c>`, 1000)+`</row>`, 1)
		}},
		{"xlsx shared string x rows", "rows.xlsx", func() ([]byte, error) {
			return Sheet(`<row><c t="s"><v>0</v></c></row>`, 20000)
		}},
		{"eml attachments x expansion", "many.eml", func() ([]byte, error) {
			return mail(attachments, attachMiB)
		}},
		{"docx entity expansion", "lol.docx", entities},
		{"html entities x nested tables", "deep.html", func() ([]byte, error) {
			cell := strings.Repeat("&NotNestedGreaterGreater;&amp;", 1<<15)
			return []byte("<html><body>" + strings.Repeat("<table><tr><td>", 60) + cell + strings.Repeat("</td></tr></table>", 60) + "</body></html>"), nil
		}},
		{"mbox nested multipart", "deep.mbox", nestedMbox},
	}
}

// mail is a message with n attachments, each a workbook expanding to
// rows MiB.
func mail(n, rows int) ([]byte, error) {
	x, err := Sheet(`<row><c t="s"><v>0</v></c></row>`, rows)
	if err != nil {
		return nil, err
	}
	att := base64.StdEncoding.EncodeToString(x)
	var b strings.Builder
	b.WriteString("From: a@b\r\nSubject: many\r\nContent-Type: multipart/mixed; boundary=X\r\n\r\n--X\r\nContent-Type: text/plain\r\n\r\nhello\r\n")
	for i := range n {
		fmt.Fprintf(&b, "--X\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"s%d.xlsx\"\r\nContent-Transfer-Encoding: base64\r\n\r\n%s\r\n", i, att)
	}
	b.WriteString("--X--\r\n")
	return []byte(b.String()), nil
}

// entities is a document whose DOCTYPE declares XML entities, each ten of
// the previous.
func entities() ([]byte, error) {
	var dt strings.Builder
	dt.WriteString(`<!DOCTYPE d [<!ENTITY e0 "lol">`)
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&dt, `<!ENTITY e%d "%s">`, i, strings.Repeat(fmt.Sprintf("&e%d;", i-1), 10))
	}
	return Zip(map[string]string{"word/document.xml": `<?xml version="1.0"?>` + dt.String() + `]><w:document><w:body><w:p><w:r><w:t>&e9;</w:t></w:r></w:p></w:body></w:document>`})
}

// nestedMbox is 200 messages of multipart nested 16 deep (the depth
// limit), text at the innermost level.
func nestedMbox() ([]byte, error) {
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "From x\nFrom: a@b\nSubject: m%d\nContent-Type: multipart/mixed; boundary=B0\n\n", i)
		for d := range 15 {
			fmt.Fprintf(&b, "--B%d\nContent-Type: multipart/mixed; boundary=B%d\n\n", d, d+1)
		}
		b.WriteString("--B15\nContent-Type: text/plain\n\n" + strings.Repeat("word ", 20000) + "\n")
		for d := 15; d >= 0; d-- {
			fmt.Fprintf(&b, "--B%d--\n", d)
		}
		b.WriteString("\n")
	}
	return []byte(b.String()), nil
}

// Sheet is a workbook with one 1 MiB shared string and rows (XML)
// repeated n times.
func Sheet(rows string, n int) ([]byte, error) {
	return Zip(map[string]string{
		"xl/workbook.xml":            `<workbook><sheets><sheet name="S" r:id="rId1" xmlns:r="r"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/sharedStrings.xml":       `<sst><si><t>` + strings.Repeat("amplified ", 1<<20/10) + `</t></si></sst>`,
		"xl/worksheets/sheet1.xml":   "<worksheet><sheetData>" + strings.Repeat(rows, n) + "</sheetData></worksheet>",
	})
}

// Zip is a zip archive of the named parts, deflated.
func Zip(parts map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, s := range parts {
		w, err := zw.Create(name)
		if err != nil {
			return nil, fmt.Errorf("zip %s: %w", name, err)
		}
		if _, err := w.Write([]byte(s)); err != nil {
			return nil, fmt.Errorf("zip %s: %w", name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("zip: %w", err)
	}
	return buf.Bytes(), nil
}
