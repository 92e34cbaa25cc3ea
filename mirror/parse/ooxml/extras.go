package ooxml

import (
	"encoding/xml"
	"errors"
	"slices"
	"strings"

	"github.com/autorag/autorag/mirror/parse"
)

// The parts of a DOCX beyond its body, as they are labelled.
const (
	headersLabel = "Headers and footers"
	notesLabel   = "Footnotes and endnotes"
)

// docxExtras writes the text of the headers and footers (each distinct
// paragraph once: the first-page, even and default headers often repeat;
// page numbers and other field results left out) and of the footnotes and
// endnotes, each group as a part of its own.
func (p *pkg) docxExtras(b *parse.Builder) error {
	var headers []string
	for _, name := range append(p.numbered("word/header"), p.numbered("word/footer")...) {
		paras, err := p.paragraphs(name, true)
		if err != nil {
			return err
		}
		for _, s := range paras {
			if !slices.Contains(headers, s) {
				headers = append(headers, s)
			}
		}
	}
	var notes []string
	for _, name := range []string{"word/footnotes.xml", "word/endnotes.xml"} {
		paras, err := p.paragraphs(name, false)
		if err != nil && !errors.Is(err, errNoPart) {
			return err
		}
		notes = append(notes, paras...)
	}
	for _, g := range []struct {
		label string
		paras []string
	}{{headersLabel, headers}, {notesLabel, notes}} {
		if len(g.paras) == 0 {
			continue
		}
		b.Blank()
		b.Part(g.label, 0, "text")
		for _, s := range g.paras {
			b.Line(s)
		}
	}
	return nil
}

// paragraphs returns the non-empty paragraphs (w:p) of a WordprocessingML
// part, on one line each; with skipFields the results of fields (PAGE,
// DATE, ...) are left out.
func (p *pkg) paragraphs(name string, skipFields bool) ([]string, error) {
	var out []string
	var para strings.Builder
	inText, field := false, 0
	err := p.decode(name, func(_ *xml.Decoder, t xml.Token) error {
		switch v := t.(type) {
		case xml.StartElement:
			switch v.Name.Local {
			case "t":
				inText = true
			case "tab", "br", "cr":
				para.WriteByte(' ')
			case "fldSimple":
				field++
			case "fldChar":
				switch attr(v, "fldCharType") {
				case "begin":
					field++
				case "end":
					field = max(0, field-1)
				}
			}
		case xml.CharData:
			if inText && (!skipFields || field == 0) {
				para.Write(v)
			}
		case xml.EndElement:
			switch v.Name.Local {
			case "t":
				inText = false
			case "fldSimple":
				field = max(0, field-1)
			case "p":
				if s := parse.OneLine(para.String()); s != "" {
					out = append(out, s)
				}
				para.Reset()
			}
		}
		return nil
	})
	return out, err
}

// notes returns the paragraphs of a slide's speaker notes: the body
// placeholder of the notes slide its relationships name (the slide image,
// number, date, header and footer placeholders are left out).
func (p *pkg) notes(slide string) ([]string, error) {
	rels, err := p.rels(slide)
	if err != nil {
		return nil, err
	}
	var target string
	for _, t := range rels {
		if strings.HasPrefix(t, "ppt/notesSlides/") && (target == "" || t < target) {
			target = t
		}
	}
	if target == "" || p.files[target] == nil {
		return nil, nil
	}
	var out []string
	var para strings.Builder
	inBody, inText := false, false
	err = p.decode(target, func(_ *xml.Decoder, t xml.Token) error {
		switch v := t.(type) {
		case xml.StartElement:
			switch v.Name.Local {
			case "sp":
				inBody = false
			case "ph":
				inBody = attr(v, "type") == "body"
			case "t":
				inText = true
			case "br":
				para.WriteByte(' ')
			}
		case xml.CharData:
			if inText && inBody {
				para.Write(v)
			}
		case xml.EndElement:
			switch v.Name.Local {
			case "t":
				inText = false
			case "p":
				if s := parse.OneLine(para.String()); s != "" && inBody {
					out = append(out, s)
				}
				para.Reset()
			}
		}
		return nil
	})
	return out, err
}

// numbered lists the parts named prefix + n + ".xml", by n.
func (p *pkg) numbered(prefix string) []string {
	type part struct {
		n    int
		name string
	}
	var found []part
	for name := range p.files {
		if n, ok := partNumber(name, prefix); ok {
			found = append(found, part{n, name})
		}
	}
	slices.SortFunc(found, func(a, b part) int { return a.n - b.n })
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.name
	}
	return out
}
