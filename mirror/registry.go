package mirror

import (
	"context"
	"strings"

	"github.com/autorag/autorag/engine/codedef"
	"github.com/autorag/autorag/mirror/parse"
	"github.com/autorag/autorag/mirror/parse/email"
	"github.com/autorag/autorag/mirror/parse/html"
	"github.com/autorag/autorag/mirror/parse/ooxml"
	"github.com/autorag/autorag/mirror/parse/pdf"
)

// Parser names and versions. A parser's version is part of every Entry and,
// through the TextHash of every file it parsed, of the corpus fingerprint:
// bumping one re-parses exactly the files it handles on the next refresh.
//
// Bump a version when the Doc it produces for some input changes: different
// normalization, different Title/Tags/Lang/LineOffset/Fields/Parts, different
// Text. Do not bump for refactors that leave every output byte-identical
// (the golden, fuzz and table tests pin the outputs). Adding a new extension
// to an existing parser does not need a bump: those files had a different
// parser (or none) before, so their entries change anyway.
const (
	textParser     = "text@3"
	markdownParser = "markdown@3"
	codeParser     = "code@3"
)

// codeParserOf is the parser name of the code file at p: codeParser,
// followed by the language and version of the syntax parser that finds
// its definitions when there is one (codedef.Syntax: "code@3+go@1",
// "code@3+tsx@tree-sitter-typescript/tsx@0.23.2+r1m2"). The chunks of
// code follow its definitions, so a new version of that parser (a
// grammar, its rules) re-parses, and so re-chunks, the files of its
// language and no others.
func codeParserOf(p string) string {
	if lang, v := codedef.Syntax(p); lang != "" {
		return codeParser + "+" + lang + "@" + v
	}
	return codeParser
}

// format is a parser and the language its Docs carry.
type format struct {
	parser parse.Parser
	lang   string
}

// Parsers of the document formats, by name.
var (
	htmlFormat = format{html.Parser{}, "html"}
	pdfFormat  = format{pdf.Parser{}, "pdf"}
	docxFormat = format{ooxml.DOCX{}, "docx"}
	pptxFormat = format{ooxml.PPTX{}, "pptx"}
	xlsxFormat = format{ooxml.XLSX{}, "xlsx"}
	emlFormat  = format{email.EML{}, "email"}
	mboxFormat = format{email.Mbox{}, "email"}
)

// formatByExt maps a lowercased extension to its document format.
var formatByExt = map[string]format{
	"html": htmlFormat, "htm": htmlFormat, "xhtml": htmlFormat,
	"pdf":  pdfFormat,
	"docx": docxFormat, "docm": docxFormat,
	"pptx": pptxFormat, "pptm": pptxFormat,
	"xlsx": xlsxFormat, "xlsm": xlsxFormat,
	"eml": emlFormat, "mbox": mboxFormat,
}

// byName finds a document format's parser by its name@version.
func byName(name string) (parse.Parser, bool) {
	for _, f := range formatByExt {
		if f.parser.Name() == name {
			return f.parser, true
		}
	}
	return nil, false
}

// binaryFormat reports parsers whose input is not text, so the scanner must
// not reject it for NUL bytes.
func binaryFormat(parser string) bool {
	switch parserBase(parser) {
	case "pdf", "docx", "pptx", "xlsx":
		return true
	}
	return false
}

// parserBase is a parser's name without its version.
func parserBase(parser string) string {
	name, _, _ := strings.Cut(parser, "@")
	return name
}

// Types of documents, as `query --type` names them.
const (
	TypeDoc    = "doc"
	TypeCode   = "code"
	TypePDF    = "pdf"
	TypeOffice = "office"
	TypeEmail  = "email"
	TypeHTML   = "html"
	TypeData   = "data"
)

// Types are the values `query --type` accepts, in the order help lists them.
var Types = []string{TypeDoc, TypeCode, TypeData, TypePDF, TypeOffice, TypeEmail, TypeHTML}

// dataLangs are the languages of the code parser that hold data or
// configuration rather than program text.
var dataLangs = map[string]bool{"yaml": true, "json": true, "toml": true, "xml": true, "csv": true, "ini": true}

// TypeOf is the type of a Doc from its parser and language: DocType, but
// data and configuration formats (YAML, JSON, TOML, XML) are TypeData
// rather than code.
func TypeOf(parser, lang string) string {
	t := DocType(parser)
	if t == TypeCode && dataLangs[lang] {
		return TypeData
	}
	return t
}

// DocType is the type of the documents a parser produces.
func DocType(parser string) string {
	switch parserBase(parser) {
	case "code":
		return TypeCode
	case "pdf":
		return TypePDF
	case "docx", "pptx", "xlsx":
		return TypeOffice
	case "eml", "mbox":
		return TypeEmail
	case "html":
		return TypeHTML
	}
	return TypeDoc
}

// nested parses an e-mail attachment with the parser its name selects,
// under the limits of the message's own parse. Text attachments are read
// as text; e-mail inside e-mail is not descended into.
func nested(lim parse.Limits) func(ctx context.Context, name string, data []byte) (*parse.Doc, string, bool, error) {
	return func(ctx context.Context, name string, data []byte) (*parse.Doc, string, bool, error) {
		return parseNested(ctx, name, data, lim)
	}
}

// parseNested parses an attachment under the limits of its message.
func parseNested(ctx context.Context, name string, data []byte, lim parse.Limits) (*parse.Doc, string, bool, error) {
	k, ok := classify(name)
	if !ok {
		return nil, "", false, nil
	}
	p, isFormat := byName(k.parser)
	if !isFormat {
		text, _, err := parse.Text(data)
		if err != nil {
			return nil, k.parser, true, err
		}
		kindName := chunkKindOf(k)
		return &parse.Doc{Text: text, Lang: k.lang, Parts: []parse.Part{{Kind: kindName}}}, k.parser, true, nil
	}
	if DocType(k.parser) == TypeEmail {
		return nil, "", false, nil
	}
	d, err := p.Parse(ctx, &parse.Input{Path: name, Data: data, Limits: lim})
	return d, k.parser, true, err
}

// chunkKindOf is the chunker kind of a text, markdown or code file.
func chunkKindOf(k kind) string {
	switch {
	case k.parser == markdownParser:
		return "markdown"
	case parserBase(k.parser) == parserBase(codeParser):
		return "code"
	}
	return "text"
}
