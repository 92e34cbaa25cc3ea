package main

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// amplifyCap is the address-space cap of each refresh of an amplifier.
const amplifyCap = 4 << 30

// textCap is the parsers' default text cap (parse.DefaultLimits.MaxText).
const textCap = 32 << 20

// amplifier is a small file that expands when parsed.
type amplifier struct {
	name, file string
	data       func() ([]byte, error)
}

func amplifiers() []amplifier {
	return []amplifier{
		{"xlsx: a 1 MiB shared string × 1,000 cells of a row", "row.xlsx", func() ([]byte, error) {
			return sheetZip(`<row>`+strings.Repeat(`<c t="s"><v>0</v></c>`, 1000)+`</row>`, 1)
		}},
		{"xlsx: the same string × 20,000 rows", "rows.xlsx", func() ([]byte, error) {
			return sheetZip(`<row><c t="s"><v>0</v></c></row>`, 20000)
		}},
		{"eml: 300 attachments of 30 MiB of text each", "many.eml", func() ([]byte, error) {
			x, err := sheetZip(`<row><c t="s"><v>0</v></c></row>`, 30)
			if err != nil {
				return nil, err
			}
			att := base64.StdEncoding.EncodeToString(x)
			var b strings.Builder
			b.WriteString("From: a@b\r\nSubject: many\r\nContent-Type: multipart/mixed; boundary=X\r\n\r\n--X\r\nContent-Type: text/plain\r\n\r\nhello\r\n")
			for i := range 300 {
				fmt.Fprintf(&b, "--X\r\nContent-Disposition: attachment; filename=\"s%d.xlsx\"\r\nContent-Transfer-Encoding: base64\r\n\r\n%s\r\n", i, att)
			}
			b.WriteString("--X--\r\n")
			return []byte(b.String()), nil
		}},
		{"docx: XML entities, each ten of the previous", "lol.docx", func() ([]byte, error) {
			var dt strings.Builder
			dt.WriteString(`<!DOCTYPE d [<!ENTITY e0 "lol">`)
			for i := 1; i < 10; i++ {
				fmt.Fprintf(&dt, `<!ENTITY e%d "%s">`, i, strings.Repeat(fmt.Sprintf("&e%d;", i-1), 10))
			}
			return zipOf(map[string]string{"word/document.xml": `<?xml version="1.0"?>` + dt.String() + `]><w:document><w:body><w:p><w:r><w:t>&e9;</w:t></w:r></w:p></w:body></w:document>`})
		}},
		{"html: entities inside 60 nested tables", "deep.html", func() ([]byte, error) {
			cell := strings.Repeat("&NotNestedGreaterGreater;&amp;", 1<<15)
			return []byte("<html><body>" + strings.Repeat("<table><tr><td>", 60) + cell + strings.Repeat("</td></tr></table>", 60) + "</body></html>"), nil
		}},
		{"mbox: 200 messages of multipart nested 16 deep", "deep.mbox", func() ([]byte, error) {
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
		}},
	}
}

// sheetZip is a workbook with one 1 MiB shared string and rows repeated n
// times.
func sheetZip(rows string, n int) ([]byte, error) {
	return zipOf(map[string]string{
		"xl/workbook.xml":            `<workbook><sheets><sheet name="S" r:id="rId1" xmlns:r="r"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/sharedStrings.xml":       `<sst><si><t>` + strings.Repeat("amplified ", 1<<20/10) + `</t></si></sst>`,
		"xl/worksheets/sheet1.xml":   "<worksheet><sheetData>" + strings.Repeat(rows, n) + "</sheetData></worksheet>",
	})
}

func zipOf(parts map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, s := range parts {
		w, err := zw.Create(name)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write([]byte(s)); err != nil {
			return nil, err
		}
	}
	err := zw.Close()
	return buf.Bytes(), err
}

// amplification refreshes a root holding one amplifier at a time under an
// address-space cap and checks that the refresh's peak RSS exceeds that of
// a refresh of a plain root by at most 8 times the text cap; the
// refresh must finish (the file fails or indexes, nothing else).
func (h *harness) amplification() outcome {
	o := outcome{Scenario: fmt.Sprintf("parsers × amplification inputs, refresh under a %d GiB address-space cap, peak RSS ≤ baseline + 8 × the %d MiB text cap", amplifyCap>>30, textCap>>20)}
	base, err := h.measuredRoot("plain.md", []byte("# Plain\n\nheronword\n"))
	if err != nil {
		o.fail("baseline: %v", err)
		return o
	}
	o.note("baseline refresh %d MiB", base>>10)
	for _, a := range amplifiers() {
		o.Trials++
		data, err := a.data()
		if err != nil {
			o.fail("%s: %v", a.name, err)
			continue
		}
		rss, err := h.measuredRoot(a.file, data)
		switch {
		case err != nil:
			o.fail("%s: %v", a.name, err)
		case rss-base > 8*textCap>>10:
			o.fail("%s (%d KB on disk): peak RSS %d MiB, over the bound", a.name, len(data)>>10, rss>>10)
		default:
			o.note("%s: %d MiB", a.name, rss>>10)
		}
	}
	return o
}

// measuredRoot refreshes a new root holding the one file and returns the
// refresh's peak RSS (KiB).
func (h *harness) measuredRoot(name string, data []byte) (int64, error) {
	root, err := os.MkdirTemp(h.work, "amplify-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(root)
	if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
		return 0, err
	}
	r, rss := h.cli.runMeasured(amplifyCap, "--root", root, "refresh", "--json")
	if r.code != 0 {
		return rss, fmt.Errorf("refresh: %s", r)
	}
	return rss, nil
}
