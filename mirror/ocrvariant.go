package mirror

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/autorag/autorag/mirror/parse"
	"github.com/autorag/autorag/mirror/parse/ocr"
)

// A PDF's parser name says what became of its scanned pages (pages
// without a text layer that show something): "pdf@3" when it has none,
// "pdf@3+ocr-off" when they were left unread, "pdf@3+tesseract@5.3.0"
// when that OCR read them. A scan accepts an entry (and a remembered
// failure) whose name is the plain one or the one of its own OCR setting,
// so that turning OCR on or off, or upgrading tesseract, re-parses the
// scanned PDFs and no others.

// ocrCapable reports whether the files of parser can have scanned pages.
func ocrCapable(parser string) bool { return parserBase(parser) == "pdf" }

// ocrState is a scan's OCR, found when a PDF first needs it (a scan that
// meets no scanned or new PDF runs no program).
type ocrState struct {
	ctx     context.Context
	find    func(context.Context) (parse.OCR, error) // nil: OCR is off
	any     bool                                     // accept every variant (Changed)
	once    sync.Once
	ocr     parse.OCR
	err     error
	variant string
}

// get returns the OCR (nil: off or unavailable) and the variant it gives
// scanned PDFs; a nil state is OCR off.
func (o *ocrState) get() (parse.OCR, string) {
	if o == nil {
		return nil, parse.OCROff
	}
	o.once.Do(func() {
		o.variant = parse.OCROff
		if o.find == nil {
			return
		}
		if o.ocr, o.err = o.find(o.ctx); o.err == nil {
			o.variant = o.ocr.Name()
		}
	})
	return o.ocr, o.variant
}

// accepts reports whether an entry or failure recorded with parser is
// current for candidate c. Changed, which looks for changed sources, not
// settings, accepts every variant.
func (s *scanner) accepts(c *candidate, parser string) bool {
	if parser == c.parser {
		return true
	}
	if !ocrCapable(c.parser) {
		return false
	}
	if s.ocr != nil && s.ocr.any {
		return strings.HasPrefix(parser, c.parser+"+")
	}
	if !strings.HasPrefix(parser, c.parser+"+") {
		return false
	}
	_, variant := s.ocr.get()
	return parser == c.parser+"+"+variant
}

// failedParser is the parser a failure is remembered with: a scan that
// OCR could change (no text found, OCR failed, or a parse with OCR that
// ran out of time) names the scan's OCR variant.
func (s *scanner) failedParser(c *candidate, err error) string {
	if !ocrCapable(c.parser) {
		return c.parser
	}
	ocr, variant := s.ocr.get()
	if errors.Is(err, parse.ErrNoText) || errors.Is(err, parse.ErrOCR) || (ocr != nil && errors.Is(err, parse.ErrTimeout)) {
		return c.parser + "+" + variant
	}
	return c.parser
}

// readBy reports whether a parser name says that the OCR named engine
// read the file's scanned pages.
func readBy(parser, engine string) bool {
	_, variant, ok := strings.Cut(parser, "+")
	return ok && ocrCapable(parser) && variant == engine
}

// OCRFinder is ScanOptions.OCR for the settings: nil when on is false,
// else the finder of the tesseract program command names (on PATH when
// command is "").
func OCRFinder(on bool, command string) func(context.Context) (parse.OCR, error) {
	if !on {
		return nil
	}
	return func(ctx context.Context) (parse.OCR, error) {
		e, err := ocr.Find(ctx, command)
		if err != nil {
			return nil, err
		}
		return e, nil
	}
}

// ParseAgain parses a file whose entry parser made, as it was made: a PDF
// that OCR read is read again by the program command finds when that is
// the same engine and version (otherwise without OCR: the caller's check
// of the text hash tells).
func ParseAgain(ctx context.Context, path string, raw []byte, parser, command string) (*Doc, error) {
	var r parse.OCR
	if _, variant, ok := strings.Cut(parser, "+"); ok && variant != parse.OCROff {
		if e, err := ocr.Find(ctx, command); err == nil && readBy(parser, e.Name()) {
			r = e
		}
	}
	return ParseOCR(ctx, path, raw, parse.Limits{}, r)
}
