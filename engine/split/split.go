package split

import (
	"cmp"
	"context"
	"strings"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/chunk"
	"github.com/autorag/autorag/engine/codedef"
	"github.com/autorag/autorag/mirror"
)

// Options say how Doc cuts a document.
type Options struct {
	Chunk        chunk.Options
	Multilingual bool // prose chunks analyzed in their own language (setLanguages)
	// Defs finds the definitions of code (a syntax parser); nil leaves
	// every language to the chunker's own: go/parser for Go, per-language
	// rules and a lexical pass for the others.
	Defs DefFinder
}

// DefFinder finds the definitions of source code in language lang (the
// syntax parser's language of the file, codedef.Syntax: "python",
// "tsx", ...; never Go, which the chunker parses with go/parser). An error (the language unsupported, the source
// unparsable, a limit reached) leaves the file to the chunker's own
// parser and heuristics, and Doc returns it; so does a nil slice with no
// error, silently.
type DefFinder interface {
	Defs(ctx context.Context, lang string, src []byte) ([]codedef.Def, error)
}

// DefFunc is a function as a DefFinder: DefFunc(syntax.Parse).
type DefFunc func(ctx context.Context, lang string, src []byte) ([]codedef.Def, error)

// Defs calls f.
func (f DefFunc) Defs(ctx context.Context, lang string, src []byte) ([]codedef.Def, error) {
	return f(ctx, lang, src)
}

//semguard:begin split

// Doc cuts a mirror Doc into the chunk records of path: each part of the
// Doc (a page, a slide, a sheet, an attachment) is chunked on its own with
// its kind, so no chunk crosses a part; a Doc without parts is one part of
// the kind its language implies. Code is cut along the definitions o.Defs
// finds (else the chunker's own) and each code chunk lists the definitions
// it holds. With multilingual analysis each chunk also gets its analysis
// language (setLanguages). fallback is the error of o.Defs when it failed
// and the code was cut by the chunker's own heuristics instead: the
// chunks are complete either way.
func Doc(ctx context.Context, path string, doc *mirror.Doc, o Options) (docs []*backend.Chunk, fallback error) {
	docs, fallback = splitDoc(ctx, path, doc, o)
	if o.Multilingual {
		setLanguages(docs, path, doc)
	}
	return docs, fallback
}

func splitDoc(ctx context.Context, path string, doc *mirror.Doc, o Options) ([]*backend.Chunk, error) {
	parts := doc.Parts
	if len(parts) == 0 {
		parts = []mirror.Part{{Kind: chunkKind(doc.Lang)}}
	}
	text := doc.Text
	lines := lineStarts(text)
	syntaxLang, _ := codedef.Syntax(path)
	var docs []*backend.Chunk
	var fallback error
	for i, p := range parts {
		from, to := partRange(lines, len(text), parts, i)
		if from >= to {
			continue
		}
		off := p.Line + doc.LineOffset
		chunks, err := splitPart(ctx, p.Kind, doc.Lang, syntaxLang, text[from:to], o)
		fallback = cmp.Or(fallback, err)
		for _, c := range chunks {
			section := metaSafe(joinSection(p.Section, c.Section))
			docs = append(docs, &backend.Chunk{
				Path: path, Ord: len(docs), Title: metaSafe(doc.Title), Section: section, Page: p.Page, Attach: metaSafe(p.Attachment),
				StartLine: c.StartLine + off, EndLine: c.EndLine + off,
				Text: c.Text, Kind: p.Kind, Defs: chunkDefs(c.Defs, off),
			})
		}
	}
	switch {
	case backend.MayAttach(path):
		entryFacets(doc, docs)
	case len(docs) > 0:
		docs[0].Facets = facetsOf(doc)
	}
	return docs, fallback
}

// splitPart chunks one part of kind kind: code in language lang along
// the definitions o.Defs finds in language syntaxLang, when the chunker
// options ask for it (Chunk.Syntax) and it finds them; else (and then with its error) along the chunker's own, which
// for Go are go/parser's.
func splitPart(ctx context.Context, kind, lang, syntaxLang, text string, o Options) ([]chunk.Chunk, error) {
	if kind != chunk.KindCode {
		return chunk.Split(kind, text, o.Chunk), nil
	}
	var defs []codedef.Def
	var err error
	if o.Defs != nil && o.Chunk.Syntax && syntaxLang != "" && syntaxLang != codedef.Go {
		defs, err = o.Defs.Defs(ctx, syntaxLang, []byte(text))
		if err != nil {
			defs = nil
		}
	}
	return chunk.SplitDefs(kind, lang, text, defs, o.Chunk), err
}

// chunkDefs is the record of a chunk's definitions, their lines moved by
// off to the file's (definitions of a name that holds the stored meta
// separator are left out).
func chunkDefs(defs []chunk.Def, off int) []backend.ChunkDef {
	if len(defs) == 0 {
		return nil
	}
	out := make([]backend.ChunkDef, 0, len(defs))
	for _, d := range defs {
		if strings.Contains(d.Name, backend.MetaSep) || strings.Contains(d.Name, backend.DefSep) {
			continue
		}
		out = append(out, backend.ChunkDef{Name: d.Name, Kind: d.Kind, Line: d.Line + off})
	}
	return out
}

// entryFacets gives every chunk of an e-mail file the filter terms of its
// entry: the message's, or its attachment's own (see facetsOfAttachment).
// Filters on such a file select chunks, not the file (backend.MayAttach).
func entryFacets(doc *mirror.Doc, docs []*backend.Chunk) {
	byName := map[string][]string{"": facetsOf(doc)}
	for _, a := range doc.Attachments {
		if _, ok := byName[metaSafe(a.Name)]; !ok {
			byName[metaSafe(a.Name)] = facetsOfAttachment(a)
		}
	}
	for _, d := range docs {
		d.Facets = byName[d.Attach]
	}
}

// lineStarts returns the byte offset of every line of text.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' && i+1 < len(text) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// partRange is the byte range of part i of text.
func partRange(lines []int, n int, parts []mirror.Part, i int) (int, int) {
	at := func(line int) int {
		if line >= len(lines) {
			return n
		}
		return lines[line]
	}
	from, to := at(parts[i].Line), n
	if i+1 < len(parts) {
		to = at(parts[i+1].Line)
	}
	return from, max(from, to)
}

// joinSection puts a part's label before the chunk's own section.
func joinSection(part, own string) string {
	switch {
	case part == "":
		return own
	case own == "":
		return part
	}
	return part + " > " + own
}

// facetsOf lists the filter terms of a Doc: its type, each field and each
// tag, lowercased "key=value" (see FilterTerm).
func facetsOf(doc *mirror.Doc) []string {
	out := []string{FilterTerm("type", mirror.TypeOf(doc.Parser, doc.Lang)), FilterTerm("lang", doc.Lang)}
	if doc.Title != "" {
		out = append(out, FilterTerm("title", doc.Title))
	}
	for _, f := range doc.Fields {
		if f.Key != "title" {
			out = append(out, FilterTerm(f.Key, f.Value))
		}
		for _, v := range mirror.AddressForms(f.Key, f.Value) {
			out = append(out, FilterTerm(f.Key, v))
		}
	}
	for _, t := range doc.Tags {
		out = append(out, FilterTerm("tag", t), FilterTerm("tags", t))
	}
	return out
}

// facetsOfAttachment lists the filter terms of an e-mail attachment's
// entry, as facetsOf does for a file: its type is that of the parser that
// read it.
func facetsOfAttachment(a mirror.Attachment) []string {
	return facetsOf(&mirror.Doc{Parser: a.Parser, Title: a.Title, Lang: a.Lang, Tags: a.Tags, Fields: a.Fields})
}

// FilterTerm is the indexed form of key=value: both lowercased, white
// space collapsed.
func FilterTerm(key, value string) string {
	return strings.ToLower(strings.TrimSpace(key)) + "=" + strings.ToLower(strings.Join(strings.Fields(value), " "))
}

// metaSafe keeps the stored meta field's separator out of a label.
func metaSafe(s string) string { return strings.ReplaceAll(s, backend.MetaSep, " ") }

// setLanguages sets each chunk's analysis language: English for code;
// for prose the language the file declares (declaredLanguage), else the
// chunk's own detected language, or, when the chunk says too little (a
// heading and a code block), the file's, detected only then.
func setLanguages(docs []*backend.Chunk, path string, doc *mirror.Doc) {
	declared, hasDeclared := declaredLanguage(path, doc)
	fileLang := ""
	for _, d := range docs {
		if d.Kind == chunk.KindCode {
			d.Lang = analyze.English
			continue
		}
		if hasDeclared {
			d.Lang = declared
			continue
		}
		l, sure := analyze.Guess(d.Body())
		if !sure {
			if fileLang == "" {
				fileLang = analyze.Detect(doc.Title + "\n" + doc.Text)
			}
			l = fileLang
		}
		d.Lang = l
	}
}

// declaredLanguage is the analysis language a file declares: its lang
// field (Markdown frontmatter, <html lang>) or a localized docs folder in
// its path (content/es/..., analyze.PathLanguage). A declaration beats
// detection, which misreads a Spanish page full of English terms as
// English or a Japanese one as Portuguese.
func declaredLanguage(path string, doc *mirror.Doc) (string, bool) {
	for _, f := range doc.Fields {
		if f.Key == "lang" {
			if code, ok := analyze.Declared(f.Value); ok {
				return code, true
			}
		}
	}
	return analyze.PathLanguage(path)
}

// chunkKind maps a document language to the chunker's kinds.
func chunkKind(lang string) string {
	switch lang {
	case "markdown", "text":
		return lang
	default:
		return "code"
	}
}

//semguard:end split
