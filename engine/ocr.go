package engine

import (
	"context"

	"github.com/autorag/autorag/mirror"
	"github.com/autorag/autorag/mirror/parse"
	"github.com/autorag/autorag/mirror/parse/ocr"
)

// ocrFinder finds the OCR a refresh reads scanned PDF pages with, for the
// scan to call when a PDF first needs it: nil when Settings.OCR is off.
func (e *Engine) ocrFinder(ctx context.Context) func() (parse.OCR, error) {
	if !e.Settings.OCR {
		return nil
	}
	return func() (parse.OCR, error) {
		eng, err := ocr.Find(ctx, e.Settings.OCRCommand)
		if err != nil {
			return nil, err
		}
		return eng, nil
	}
}

// ocrWarning is the warning of a scan whose OCR could not be found or
// run (the scanned PDFs then stay unread, reported "no text layer", and
// nothing else changes); "" when there is none.
func ocrWarning(ctx context.Context, err error) string {
	if err == nil || ctx.Err() != nil {
		return ""
	}
	return "OCR is on but cannot run, scanned PDFs stay unread: " + err.Error()
}

// reparseOCR is the OCR that reads an entry's scanned pages again when
// its mirror object is lost: the one its parser names (an entry read by
// another version, or with OCR since turned off, is not read back: the
// text hash would not match).
func (e *Engine) reparseOCR(ctx context.Context, parser string) parse.OCR {
	if !mirror.ReadByOCR(parser) {
		return nil
	}
	eng, err := ocr.Find(ctx, e.Settings.OCRCommand)
	if err != nil || !mirror.ReadBy(parser, eng.Name()) {
		return nil
	}
	return eng
}
