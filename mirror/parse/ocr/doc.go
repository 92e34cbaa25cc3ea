// Package ocr reads the text of page images with tesseract, run as a
// separate process (Debian's tesseract-ocr and tesseract-ocr-eng, 5.3.0):
// the PDF parser renders the pages that have no text layer (scans) and
// hands them here when a refresh asks for OCR (`refresh --ocr`, the
// setting ocr = true).
//
// Find locates the program (the setting ocr_command, else tesseract on
// PATH), asks it for its version and checks that its English data is
// installed; what it finds names the engine ("tesseract@5.3.0"), and that
// name becomes part of the parser version of every PDF whose pages it read,
// so that enabling OCR or upgrading tesseract re-parses those PDFs and no
// others. A missing program or language is ErrUnavailable with the command
// that installs it.
//
// Each page is written to the program's standard input as a binary PGM
// (8-bit grey) and its text read from standard output, under a deadline of
// its own; nothing is written to disk. OMP_THREAD_LIMIT=1 keeps each
// process to one thread: the scan already parses files on every core.
//
// It must never import engine or mirror.
package ocr
