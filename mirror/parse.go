package mirror

import (
	"context"
	"fmt"

	"github.com/autorag/autorag/mirror/parse"
)

// ErrBinary is returned by Parse for content that is not text: a NUL byte in
// the first 8 KiB (of a file that is not UTF-16), or a well-known binary
// extension.
var ErrBinary = parse.ErrBinary

// sniffLen is how much of a file is checked for NUL bytes.
const sniffLen = parse.SniffLen

// Field and Part are a Doc's metadata fields and line ranges (see package
// parse).
type (
	Field      = parse.Field
	Part       = parse.Part
	Attachment = parse.Attachment
)

// Doc is the normalized, parsed form of one source file.
type Doc struct {
	Parser     string   // name@version: "text@3", "markdown@3", "code@3", "pdf@3", "pdf@3+tesseract@5.3.0", ...
	Title      string   // markdown: frontmatter title, else first "# " heading; documents: their title; else ""
	Tags       []string // markdown frontmatter tags/keywords (string or list), document keywords, else nil
	Lang       string   // "markdown", "text", a code language ("go", ...) or a format ("pdf", "html", "email", ...)
	LineOffset int      // source lines before Text begins: source line = LineOffset + line in Text
	Text       string   // NFC, valid UTF-8, "\n" line ends, no BOM
	Fields     []Field  // metadata (frontmatter scalars, document properties, e-mail headers), sorted by key
	Parts      []Part   // line ranges with their own section, page and chunker kind; nil for one part
	// Attachments: the e-mail attachments' metadata, one per name in Parts'
	// Attachment; nil for other formats.
	Attachments []Attachment
}

//semguard:begin parse

// Parse turns the raw bytes of the file at path into a Doc, choosing the
// parser by file name (see ParserFor), with the default limits.
func Parse(path string, raw []byte) (*Doc, error) {
	return ParseContext(context.Background(), path, raw, parse.Limits{})
}

// ParseContext is Parse under ctx and the given limits (zero fields take
// parse.DefaultLimits). Text, markdown and code are decoded (UTF-8 with or
// without BOM, UTF-16, legacy encodings; see parse.Decode), CRLF and lone
// CR turned into "\n", and NFC-normalized; a NUL byte in the first 8 KiB
// yields an error wrapping ErrBinary. Document formats go through their
// parser under parse.Run (deadline, panic recovery).
func ParseContext(ctx context.Context, path string, raw []byte, lim parse.Limits) (*Doc, error) {
	d, _, err := parseFile(ctx, path, raw, lim, nil)
	return d, err
}

// ParseOCR is ParseContext with ocr reading the scanned pages of a PDF
// (nil: left unread, as ParseContext does).
func ParseOCR(ctx context.Context, path string, raw []byte, lim parse.Limits, ocr parse.OCR) (*Doc, error) {
	d, _, err := parseFile(ctx, path, raw, lim, ocr)
	return d, err
}

// parseFile is ParseOCR, also returning how many pages OCR read.
func parseFile(ctx context.Context, path string, raw []byte, lim parse.Limits, ocr parse.OCR) (*Doc, int, error) {
	k, ok := classify(path)
	if !ok {
		return nil, 0, fmt.Errorf("parse %s: %w", path, ErrBinary)
	}
	if p, isFormat := byName(k.parser); isFormat {
		in := &parse.Input{Path: path, Data: raw, Limits: lim.WithDefaults(), Nested: nested(lim.WithDefaults())}
		if ocrCapable(k.parser) {
			in.OCR = ocr
		}
		pd, err := parse.Run(ctx, p, in)
		if err != nil {
			return nil, 0, fmt.Errorf("parse %s: %w", path, err)
		}
		return fromParse(k, pd), pd.OCRPages, nil
	}
	text, enc, err := parse.Text(raw)
	if err != nil {
		return nil, 0, fmt.Errorf("parse %s: %w", path, err)
	}
	var d *Doc
	if k.parser == markdownParser {
		d = parseMarkdown(text)
	} else {
		d = &Doc{Parser: k.parser, Lang: k.lang, Text: text}
	}
	if enc != "utf-8" {
		d.Fields = parse.SortFields(append(d.Fields, Field{Key: "encoding", Value: enc}))
	}
	return d, 0, nil
}

// fromParse turns a parser's Doc into a mirror Doc; a PDF with scanned
// pages names what became of them in its parser (ocrvariant.go).
func fromParse(k kind, pd *parse.Doc) *Doc {
	parser := k.parser
	if pd.OCR != "" {
		parser += "+" + pd.OCR
	}
	d := &Doc{Parser: parser, Title: parse.OneLine(pd.Title), Tags: dedupe(pd.Tags), Lang: k.lang,
		LineOffset: pd.LineOffset, Text: pd.Text, Fields: parse.SortFields(pd.Fields), Parts: pd.Parts}
	for _, a := range pd.Attachments {
		d.Attachments = append(d.Attachments, Attachment{Name: a.Name, Parser: a.Parser, Title: parse.OneLine(a.Title),
			Lang: a.Lang, Tags: dedupe(a.Tags), Fields: parse.SortFields(a.Fields)})
	}
	if pd.Lang != "" {
		d.Lang = pd.Lang
	}
	return d
}

//semguard:end parse
