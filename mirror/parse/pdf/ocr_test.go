package pdf

import (
	"context"
	"errors"
	"image"
	"strings"
	"testing"

	"github.com/autorag/autorag/internal/ocrtest"
	"github.com/autorag/autorag/mirror/parse"
	"github.com/autorag/autorag/mirror/parse/ocr"
)

// tesseract finds the OCR engine the tests run.
func tesseract(t *testing.T) *ocr.Engine {
	t.Helper()
	e, err := ocr.Find(context.Background(), ocrtest.Command(t))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// With OCR, the pages of a scan are read: each page's words in its own
// part, and the Doc says which engine read how many pages.
func TestOCRReadsScannedPages(t *testing.T) {
	eng := tesseract(t)
	var heard []string
	ctx := parse.WithNotice(context.Background(), func(s string) { heard = append(heard, s) })
	d, err := parse.Run(ctx, Parser{}, &parse.Input{Path: "scan.pdf", Data: read(t, "scanned-ocr.pdf"), OCR: eng})
	if err != nil {
		t.Fatal(err)
	}
	if d.OCR != eng.Name() || d.OCRPages != 2 || !strings.HasPrefix(d.OCR, "tesseract@") {
		t.Errorf("OCR = %q, %d pages; want %s, 2", d.OCR, d.OCRPages, eng.Name())
	}
	lines := strings.Split(d.Text, "\n")
	for _, w := range []struct {
		word string
		page int
	}{{"spillway", 1}, {"heliotrope", 2}} {
		if got := pageOf(d, lines, w.word); got != w.page {
			t.Errorf("%q on page %d, want %d; text:\n%s", w.word, got, w.page, d.Text)
		}
	}
	if !contains(heard, "OCR scan.pdf: page 2 of 2 scanned") || heard[len(heard)-1] != "" {
		t.Errorf("notices %q, want the pages counted and an end", heard)
	}
}

// pageOf is the page of the first line holding word; 0 for none.
func pageOf(d *parse.Doc, lines []string, word string) int {
	for i, l := range lines {
		if strings.Contains(strings.ToLower(l), word) {
			page := 0
			for _, p := range d.Parts {
				if p.Line <= i {
					page = p.Page
				}
			}
			return page
		}
	}
	return 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Without OCR a scan fails with ErrNoText, and the reason names --ocr; a
// PDF with a text layer on every page needs no OCR (Doc.OCR empty).
func TestScanWithoutOCRNamesTheFlag(t *testing.T) {
	_, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: read(t, "scanned-ocr.pdf")})
	if !errors.Is(err, parse.ErrNoText) || !strings.Contains(err.Error(), "--ocr") {
		t.Errorf("err = %v, want ErrNoText naming --ocr", err)
	}
	d, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: read(t, "report-libreoffice.pdf"), OCR: tesseract(t)})
	if err != nil || d.OCR != "" || d.OCRPages != 0 {
		t.Errorf("text PDF: OCR %q, %d pages, %v; want none", d.OCR, d.OCRPages, err)
	}
}

// failingOCR stands for an OCR program that crashes or hangs.
type failingOCR struct{ hang bool }

func (failingOCR) Name() string { return "broken@1" }

func (f failingOCR) Recognize(ctx context.Context, _ *image.Gray, _ int) (string, error) {
	if f.hang {
		<-ctx.Done()
		return "", ctx.Err()
	}
	return "", errors.New("exit status 1: Error, cannot read input file")
}

// A page OCR fails on, or that passes its own deadline, fails the file
// with ErrOCR naming the page.
func TestOCRFailureNamesThePage(t *testing.T) {
	for _, f := range []failingOCR{{}, {hang: true}} {
		_, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: read(t, "scanned-ocr.pdf"), OCR: f,
			Limits: parse.Limits{OCRPageTimeout: 200e6}})
		if !errors.Is(err, parse.ErrOCR) || !strings.Contains(err.Error(), "page 1") {
			t.Errorf("hang=%v: err = %v, want ErrOCR on page 1", f.hang, err)
		}
	}
}

// OCR reads at most Limits.OCRPages scanned pages of a file.
func TestOCRPagesBounded(t *testing.T) {
	d, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: read(t, "scanned-ocr.pdf"), OCR: tesseract(t),
		Limits: parse.Limits{OCRPages: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if d.OCRPages != 1 || !strings.Contains(d.Text, "spillway") || strings.Contains(d.Text, "heliotrope") {
		t.Errorf("%d pages read, text %q; want page 1 only", d.OCRPages, d.Text)
	}
}

// BenchmarkOCRPage parses the scanned fixture with OCR: two small pages of two
// lines each, rendered at 300 dpi and read by tesseract (its CPU is in
// the child processes: time the run with /usr/bin/time for the total).
func BenchmarkOCRPage(b *testing.B) {
	eng, err := ocr.Find(context.Background(), ocrtest.Command(b))
	if err != nil {
		b.Fatal(err)
	}
	data := read(b, "scanned-ocr.pdf")
	for b.Loop() {
		d, err := parse.Run(context.Background(), Parser{}, &parse.Input{Data: data, OCR: eng})
		if err != nil || d.OCRPages != 2 {
			b.Fatalf("%v, %d pages", err, d.OCRPages)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/page")
}
