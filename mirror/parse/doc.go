// Package parse holds what every document parser shares: the Doc a parser
// produces, the Parser interface with its name@version, the limits of one
// parse (Run enforces a deadline and recovers panics), the Builder that
// assembles text with its parts (pages, slides, sheets, attachments), and
// the detection of text encodings (Decode).
//
// The format parsers live in sub-packages (html, pdf, ooxml, email); the
// mirror package picks one by file name and stores what it returns.
//
// # Parts
//
// A Doc's Text is one string of "\n"-separated lines. Parts, when present,
// cut it into consecutive ranges of whole lines, each with a section label
// ("Slide 2: Root cause", "Sheet: Budget", "attachment: report.pdf"), a page
// number (PDF) and the chunker kind for its lines (markdown, text or code).
// The chunker never lets a chunk cross a part boundary, so a PDF chunk has
// exactly one page.
//
// # Bounds
//
// A parse gets the whole file in memory (the scanner caps its size) and
// Limits: a deadline, a cap on the text it may produce, and for archives a
// cap on the bytes it may decompress. Parsers check the context in their
// loops; Run stops waiting at the deadline whatever the parser does.
package parse
