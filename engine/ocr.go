package engine

import (
	"context"

	"github.com/autorag/autorag/mirror"
	"github.com/autorag/autorag/mirror/parse"
	"github.com/autorag/autorag/mirror/parse/ocr"
)

// ocrReader is the OCR a refresh reads scanned PDF pages with: nil when
// Settings.OCR is off, and also, with a warning that says how to install
// it, when the program cannot be found or run (the scanned PDFs then stay
// unread, reported "no text layer", and nothing else changes).
func (e *Engine) ocrReader(ctx context.Context) (parse.OCR, string) {
	if !e.Settings.OCR {
		return nil, ""
	}
	eng, err := ocr.Find(ctx, e.Settings.OCRCommand)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ""
		}
		return nil, "OCR is on but cannot run, scanned PDFs stay unread: " + err.Error()
	}
	return eng, ""
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
