package mirror

import (
	"errors"
	"strings"

	"github.com/autorag/autorag/mirror/parse"
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

// ocrName is the variant a scan with ocr gives scanned PDFs.
func ocrName(ocr parse.OCR) string {
	if ocr == nil {
		return parse.OCROff
	}
	return ocr.Name()
}

// accepts reports whether an entry or failure recorded with parser is
// current for candidate c. A scanner without an OCR variant (Changed,
// which looks for changed sources, not settings) accepts every variant.
func (s *scanner) accepts(c *candidate, parser string) bool {
	if parser == c.parser {
		return true
	}
	if !ocrCapable(c.parser) {
		return false
	}
	if s.ocrVariant == "" {
		return strings.HasPrefix(parser, c.parser+"+")
	}
	return parser == c.parser+"+"+s.ocrVariant
}

// failedParser is the parser a failure is remembered with: a scan that
// OCR could change (no text found, OCR failed, or a parse with OCR that
// ran out of time) names the scan's OCR variant.
func (s *scanner) failedParser(c *candidate, err error) string {
	if !ocrCapable(c.parser) {
		return c.parser
	}
	if errors.Is(err, parse.ErrNoText) || errors.Is(err, parse.ErrOCR) || (s.ocr != nil && errors.Is(err, parse.ErrTimeout)) {
		return c.parser + "+" + s.ocrVariant
	}
	return c.parser
}

// ReadByOCR reports whether a parser name says that OCR read the file's
// scanned pages.
func ReadByOCR(parser string) bool {
	_, variant, ok := strings.Cut(parser, "+")
	return ok && ocrCapable(parser) && variant != parse.OCROff
}

// ReadBy reports whether the OCR named engine read the file.
func ReadBy(parser, engine string) bool {
	_, variant, _ := strings.Cut(parser, "+")
	return ReadByOCR(parser) && variant == engine
}
