// Package pdf extracts the text of PDF files page by page with PDFium
// compiled to WebAssembly (github.com/klippa-app/go-pdfium, run by wazero):
// pure Go, no cgo, and a sandbox: each instance has a bounded linear memory
// (512 MiB) and a parse past its deadline is killed, not abandoned.
//
// It was chosen over github.com/ledongthuc/pdf by measuring word F1 against
// poppler's pdftotext on PDFs written by LibreOffice, Ghostscript (ps2pdf)
// and groff's gropdf (docs/BENCHMARKS.md): PDFium scored 0.88-1.00 on every
// producer, ledongthuc 0.73-1.00 with its best of three text modes
// depending on the producer. pdfcpu has no text extraction (it dumps
// content streams). PDFium costs a one-time compilation of its module (5-8 s
// on this machine), which is cached on disk (UseCacheDir) so later
// processes start it in about 0.15 s, and it is only started when a PDF is
// parsed.
//
// A page without a text layer that shows something (an image, paths) is a
// scanned page: with an OCR in the Input (package ocr, `refresh --ocr`) it
// is rendered in grey at 300 dpi and the OCR's text becomes the page's,
// each page under Limits.OCRPageTimeout and at most Limits.OCRPages of them
// (pages.go); Doc.OCR names what became of such pages, and the mirror
// makes that part of the file's parser name.
//
// Every page becomes one part with its 1-based page number; the document
// information dictionary (Title, Author, Subject, Keywords, Creator,
// Producer, CreationDate) becomes the Doc's title, tags and fields. A file
// that needs a password fails with parse.ErrEncrypted.
package pdf
