package pdf

import (
	"context"
	"fmt"
	"image"
	"strings"

	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"

	"github.com/autorag/autorag/mirror/parse"
)

// ocrDPI is the resolution scanned pages are rendered at for OCR, and
// ocrMaxSide the most pixels a rendered side may have (a poster-sized page
// is rendered at a lower resolution, so one page stays under 18 MB of
// grey pixels).
const (
	ocrDPI     = 300
	ocrMaxSide = 4200
)

// reader reads a document's pages: their text layer, and with OCR the
// pages that have none but show something.
type reader struct {
	ctx  context.Context
	inst instanceAPI
	doc  references.FPDF_DOCUMENT
	in   *parse.Input
	// scanned counts the pages without a text layer that show something;
	// read those that OCR read.
	scanned, read int
}

// pages writes each page's text as a part: the text layers first, then
// OCR's reading of the scanned pages (the first Limits.OCRPages of them).
func (r *reader) pages(b *parse.Builder) error {
	texts, scans, err := r.textLayers()
	if err != nil {
		return err
	}
	r.scanned = len(scans)
	if r.in.OCR != nil {
		if err := r.recognize(texts, scans); err != nil {
			return err
		}
	}
	for i, t := range texts {
		if b.Over() {
			break
		}
		b.Part("", i+1, "text")
		for _, l := range strings.Split(parse.JoinHyphens(t), "\n") {
			b.Line(strings.TrimRight(l, " \t\r"))
		}
		b.Blank()
	}
	return nil
}

// textLayers returns every page's text (until their total passes the
// text cap) and the indexes of the pages that have none but show
// something.
func (r *reader) textLayers() ([]string, []int, error) {
	n, err := r.inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: r.doc})
	if err != nil {
		return nil, nil, fail(r.ctx, err)
	}
	var texts []string
	var scans []int
	size := 0
	for i := 0; i < n.PageCount && size <= r.in.Limits.MaxText; i++ {
		if err := r.ctx.Err(); err != nil {
			return nil, nil, err
		}
		t, err := r.inst.GetPageText(&requests.GetPageText{Page: r.page(i)})
		if err != nil {
			return nil, nil, fail(r.ctx, err)
		}
		text := strings.TrimSpace(t.Text)
		texts, size = append(texts, text), size+len(text)
		if text == "" && r.shows(i) {
			scans = append(scans, i)
		}
	}
	return texts, scans, nil
}

func (r *reader) page(i int) requests.Page {
	return requests.Page{ByIndex: &requests.PageByIndex{Document: r.doc, Index: i}}
}

// shows reports whether page i holds any object (an image, a path):
// a page without a text layer and without objects is blank.
func (r *reader) shows(i int) bool {
	c, err := r.inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: r.page(i)})
	return err == nil && c.Count > 0
}

// recognize puts OCR's text of the scanned pages into texts, saying how
// far it got through parse.Notify.
func (r *reader) recognize(texts []string, scans []int) error {
	if len(scans) > r.in.Limits.OCRPages {
		scans = scans[:r.in.Limits.OCRPages]
	}
	defer parse.Notify(r.ctx, "")
	for k, i := range scans {
		parse.Notify(r.ctx, fmt.Sprintf("OCR %s: page %d of %d scanned", r.in.Path, k+1, len(scans)))
		text, err := r.recognizePage(i)
		if err != nil {
			return err
		}
		texts[i] = strings.TrimSpace(text)
		r.read++
	}
	return nil
}

// recognizePage renders page i in grey and has OCR read it, under the
// page's deadline.
func (r *reader) recognizePage(i int) (string, error) {
	size, err := r.inst.GetPageSize(&requests.GetPageSize{Page: r.page(i)})
	if err != nil {
		return "", r.ocrError(i, fmt.Errorf("page size: %v", err))
	}
	dpi := renderDPI(size.Width, size.Height)
	img, err := r.inst.RenderPageInDPI(&requests.RenderPageInDPI{Page: r.page(i), DPI: dpi,
		ImageFormat: requests.RenderImageFormatGrayscale})
	if err != nil {
		return "", r.ocrError(i, fmt.Errorf("render: %v", err))
	}
	defer img.Cleanup()
	gray, ok := img.Result.RenderedImage.(*image.Gray)
	if !ok {
		return "", r.ocrError(i, fmt.Errorf("render gave %T, not grey", img.Result.RenderedImage))
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.in.Limits.OCRPageTimeout)
	defer cancel()
	text, err := r.in.OCR.Recognize(ctx, gray, dpi)
	if err != nil && r.ctx.Err() == nil && ctx.Err() != nil {
		err = fmt.Errorf("%s passed the page's deadline of %s", r.in.OCR.Name(), r.in.Limits.OCRPageTimeout)
	}
	if err != nil {
		return "", r.ocrError(i, err)
	}
	return text, nil
}

// ocrError is the error of page i, or the parse's own when it was
// cancelled or passed its deadline.
func (r *reader) ocrError(i int, err error) error {
	if cerr := r.ctx.Err(); cerr != nil {
		return cerr
	}
	return fmt.Errorf("%w: page %d: %v", parse.ErrOCR, i+1, err)
}

// renderDPI is ocrDPI, or less for a page whose longer side would pass
// ocrMaxSide pixels (sizes in points, 72 a inch).
func renderDPI(w, h float64) int {
	side := max(w, h)
	if side <= 0 || side*ocrDPI/72 <= ocrMaxSide {
		return ocrDPI
	}
	return max(1, int(ocrMaxSide*72/side))
}

// ocrState is the Doc's OCR: "" when no page needed it, else the OCR that
// read the scanned pages or parse.OCROff.
func (r *reader) ocrState() string {
	switch {
	case r.scanned == 0:
		return ""
	case r.in.OCR == nil:
		return parse.OCROff
	}
	return r.in.OCR.Name()
}

// noText is the error of a document whose pages gave no text.
func (r *reader) noText() error {
	switch {
	case r.scanned == 0:
		return fmt.Errorf("%w: the pages hold no text", parse.ErrNoText)
	case r.in.OCR == nil:
		return fmt.Errorf("%w: the pages are images only (a scan?); OCR is off (`autorag refresh --ocr` reads them with tesseract)", parse.ErrNoText)
	}
	return fmt.Errorf("%w: OCR (%s) read no text on %d scanned pages", parse.ErrNoText, r.in.OCR.Name(), r.read)
}
