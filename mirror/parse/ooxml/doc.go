// Package ooxml extracts text and document properties from Office Open XML
// files: DOCX (paragraphs, headings by paragraph style as markdown
// headings, tables as " | " rows; then a part "Headers and footers", each
// distinct paragraph once without field results such as page numbers, and
// a part "Footnotes and endnotes"), PPTX (one part per slide in
// presentation order, labelled "Slide N: title", its speaker notes after
// its text under "Speaker notes:") and XLSX (one part per sheet in workbook
// order, labelled "Sheet: name", one line per row with cells separated by
// " | ", shared and inline strings resolved). docProps/core.xml and app.xml
// give the title, author, subject, keywords, dates and application.
//
// Reading is bounded: every part is read through a budget shared by the
// whole file (parse.Limits.MaxUnpacked), whatever the sizes the archive
// claims, so a zip bomb fails with parse.ErrTooLarge after decompressing at
// most that much; the text produced is capped by parse.Limits.MaxText; the
// XML decoders stream and check the context as they go.
package ooxml
