package ooxml

import (
	"context"
	"encoding/xml"
	"errors"
	"strconv"
	"strings"

	"github.com/autorag/autorag/mirror/parse"
)

//semguard:begin docx-parser

// DOCX reads Word documents.
type DOCX struct{}

// Name is the parser's name@version.
func (DOCX) Name() string { return "docx@3" }

// Parse extracts the body text, headings as markdown headings, then the
// text of the headers and footers and of the footnotes and endnotes, each
// group a part of its own.
func (DOCX) Parse(ctx context.Context, in *parse.Input) (*parse.Doc, error) {
	p, err := openPkg(ctx, in)
	if err != nil {
		return nil, err
	}
	d := &parse.Doc{Lang: "docx"}
	if d.Fields, d.Title, d.Tags, err = p.properties(); err != nil {
		return nil, err
	}
	levels, err := p.headingStyles()
	if err != nil {
		return nil, err
	}
	b := parse.NewBuilder(in.Limits.MaxText)
	b.Part("", 0, "markdown")
	w := &docxWalker{b: b, levels: levels}
	if err := p.decode("word/document.xml", w.token); err != nil {
		return nil, err
	}
	if err := p.docxExtras(b); err != nil {
		return nil, err
	}
	return finish(d, b, in.Limits.MaxText)
}

//semguard:end docx-parser

// headingStyles maps paragraph style IDs to heading levels, from the
// style names in word/styles.xml ("heading 1", "Title"), with the built-in
// IDs ("Heading1") as fallback.
func (p *pkg) headingStyles() (map[string]int, error) {
	levels := map[string]int{"Title": 1}
	for i := 1; i <= 6; i++ {
		levels["Heading"+strconv.Itoa(i)] = i
	}
	var id string
	err := p.decode("word/styles.xml", func(_ *xml.Decoder, t xml.Token) error {
		s, ok := t.(xml.StartElement)
		if !ok {
			return nil
		}
		switch s.Name.Local {
		case "style":
			id = attr(s, "styleId")
		case "name":
			if lvl := headingLevel(attr(s, "val")); lvl > 0 && id != "" {
				levels[id] = lvl
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errNoPart) {
		return nil, err
	}
	return levels, nil
}

// headingLevel reads "heading 2" as 2 and "Title" as 1.
func headingLevel(name string) int {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "title" {
		return 1
	}
	if rest, ok := strings.CutPrefix(n, "heading "); ok {
		if l, err := strconv.Atoi(rest); err == nil && l >= 1 && l <= 6 {
			return l
		}
	}
	return 0
}

// docxWalker assembles paragraphs from the token stream.
type docxWalker struct {
	b        *parse.Builder
	levels   map[string]int
	para     strings.Builder
	level    int
	inText   bool
	row      []string // cells of the table row being read; nil outside rows
	depth    int      // table nesting
	cellText strings.Builder
}

func (w *docxWalker) token(_ *xml.Decoder, t xml.Token) error {
	switch v := t.(type) {
	case xml.StartElement:
		switch v.Name.Local {
		case "t":
			w.inText = true
		case "tab":
			w.para.WriteByte('\t')
		case "br", "cr":
			w.para.WriteByte(' ')
		case "pStyle":
			w.level = w.levels[attr(v, "val")]
		case "tbl":
			w.depth++
		case "tr":
			w.row = w.row[:0]
		}
	case xml.CharData:
		if w.inText {
			w.para.Write(v)
		}
	case xml.EndElement:
		switch v.Name.Local {
		case "t":
			w.inText = false
		case "p":
			w.paragraph()
		case "tc":
			if w.row != nil || w.depth > 0 {
				w.row = append(w.row, parse.OneLine(w.cell()))
			}
		case "tr":
			if strings.Join(w.row, "") != "" {
				w.b.Line(strings.Join(w.row, " | "))
			}
			w.row = nil
		case "tbl":
			w.depth--
			w.b.Blank()
		}
	}
	return nil
}

// cellText collects the paragraphs of a table cell.
func (w *docxWalker) cell() string {
	s := w.cellText.String()
	w.cellText.Reset()
	return s
}

// paragraph ends a paragraph: in a table it joins the cell's text, else it
// is a line of its own (a heading between blank lines).
func (w *docxWalker) paragraph() {
	text := parse.OneLine(w.para.String())
	w.para.Reset()
	level := w.level
	w.level = 0
	if w.depth > 0 {
		w.cellText.WriteString(text + " ")
		return
	}
	switch {
	case text == "":
	case level > 0:
		w.b.Blank()
		w.b.Line(strings.Repeat("#", level) + " " + text)
		w.b.Blank()
	default:
		if strings.HasPrefix(text, "#") {
			text = `\` + text
		}
		w.b.Line(text)
		w.b.Blank()
	}
}
