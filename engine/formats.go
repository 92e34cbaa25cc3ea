package engine

import (
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/chunk"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/mirror"
)

// scanOptions are the mirror scan's options for a refresh: the size cap,
// the default parse limits (mirror/parse.DefaultLimits) and the parse
// failures remembered by earlier refreshes (forgotten by a rebuild, which
// parses every file again).
func (e *Engine) scanOptions(paths []string, rebuild bool) mirror.ScanOptions {
	o := mirror.ScanOptions{Paths: paths, MaxFileSize: e.Settings.MaxFileSize}
	if !rebuild {
		o.Failures = mirror.LoadFailMemo(e.failuresPath())
	}
	return o
}

// failuresPath is the parse-failure memo, beside the manifest.
func (e *Engine) failuresPath() string { return filepath.Join(e.Layout.MirrorDir(), "failed.json") }

// saveFailures writes the scan's parse-failure memo when it changed. It
// only saves work: when it cannot be written the files are parsed again
// next time, so a failure is a warning.
func (e *Engine) saveFailures(scan *mirror.ScanResult, res *RefreshResult) {
	if !scan.FailuresChanged {
		return
	}
	if err := scan.Failures.Save(e.failuresPath()); err != nil {
		res.Warnings = append(res.Warnings, "parse-failure memo not saved: "+err.Error())
	}
}

// splitDoc cuts a mirror Doc into chunk docs for path: each part of the Doc
// (a page, a slide, a sheet, an attachment) is chunked on its own with its
// kind, so no chunk crosses a part; a Doc without parts is one part of the
// kind its language implies.
func splitDoc(path string, doc *mirror.Doc, o chunk.Options) []*backend.Chunk {
	parts := doc.Parts
	if len(parts) == 0 {
		parts = []mirror.Part{{Kind: chunkKind(doc.Lang)}}
	}
	text := doc.Text
	lines := lineStarts(text)
	var docs []*backend.Chunk
	for i, p := range parts {
		from, to := partRange(lines, len(text), parts, i)
		if from >= to {
			continue
		}
		lang := doc.Lang
		if p.Kind != chunk.KindCode {
			lang = ""
		}
		for _, c := range chunk.SplitLang(p.Kind, lang, text[from:to], o) {
			section := metaSafe(joinSection(p.Section, c.Section))
			docs = append(docs, &backend.Chunk{
				Path: path, Ord: len(docs), Title: metaSafe(doc.Title), Section: section, Page: p.Page, Attach: metaSafe(p.Attachment),
				StartLine: c.StartLine + p.Line + doc.LineOffset, EndLine: c.EndLine + p.Line + doc.LineOffset,
				Text: c.Text, Kind: p.Kind,
			})
		}
	}
	switch {
	case mayAttach(path):
		entryFacets(doc, docs)
	case len(docs) > 0:
		docs[0].Facets = facetsOf(doc)
	}
	return docs
}

// entryFacets gives every chunk of an e-mail file the filter terms of its
// entry: the message's, or its attachment's own (see facetsOfAttachment).
// Filters on such a file select chunks, not the file (see withFacets).
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
// tag, lowercased "key=value" (see filterTerm).
func facetsOf(doc *mirror.Doc) []string {
	out := []string{filterTerm("type", mirror.TypeOf(doc.Parser, doc.Lang)), filterTerm("lang", doc.Lang)}
	if doc.Title != "" {
		out = append(out, filterTerm("title", doc.Title))
	}
	for _, f := range doc.Fields {
		if f.Key != "title" {
			out = append(out, filterTerm(f.Key, f.Value))
		}
		for _, v := range mirror.AddressForms(f.Key, f.Value) {
			out = append(out, filterTerm(f.Key, v))
		}
	}
	for _, t := range doc.Tags {
		out = append(out, filterTerm("tag", t), filterTerm("tags", t))
	}
	return out
}

// facetsOfAttachment lists the filter terms of an e-mail attachment's
// entry, as facetsOf does for a file: its type is that of the parser that
// read it.
func facetsOfAttachment(a mirror.Attachment) []string {
	return facetsOf(&mirror.Doc{Parser: a.Parser, Title: a.Title, Lang: a.Lang, Tags: a.Tags, Fields: a.Fields})
}

// filterTerm is the indexed form of key=value: both lowercased, white
// space collapsed.
func filterTerm(key, value string) string {
	return strings.ToLower(strings.TrimSpace(key)) + "=" + strings.ToLower(strings.Join(strings.Fields(value), " "))
}

// metaSafe keeps the stored meta field's separator out of a label.
func metaSafe(s string) string { return strings.ReplaceAll(s, backend.MetaSep, " ") }

// mayAttach reports a path whose chunks may come from attachments
// (backend.MayAttach).
func mayAttach(path string) bool { return backend.MayAttach(path) }

// isCode reports whether a chunk comes from a file parsed as code.
func isCode(id string) bool {
	path, _ := record.SplitChunkID(id)
	p, ok := mirror.ParserFor(path)
	return ok && strings.HasPrefix(p, "code@")
}
