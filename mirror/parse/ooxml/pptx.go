package ooxml

import (
	"context"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/autorag/autorag/mirror/parse"
)

//semguard:begin pptx-parser

// PPTX reads PowerPoint presentations.
type PPTX struct{}

// Name is the parser's name@version.
func (PPTX) Name() string { return "pptx@3" }

// Parse extracts each slide's text, then its speaker notes, as a part
// "Slide N: title".
func (PPTX) Parse(ctx context.Context, in *parse.Input) (*parse.Doc, error) {
	p, err := openPkg(ctx, in)
	if err != nil {
		return nil, err
	}
	d := &parse.Doc{Lang: "pptx"}
	if d.Fields, d.Title, d.Tags, err = p.properties(); err != nil {
		return nil, err
	}
	slides, err := p.slideOrder()
	if err != nil {
		return nil, err
	}
	b := parse.NewBuilder(in.Limits.MaxText)
	for i, name := range slides {
		title, paras, err := p.slide(name)
		if err != nil {
			return nil, err
		}
		label := "Slide " + strconv.Itoa(i+1)
		if title != "" {
			label += ": " + title
		}
		b.Part(label, 0, "text")
		for _, para := range paras {
			b.Line(para)
		}
		notes, err := p.notes(name)
		if err != nil {
			return nil, err
		}
		if len(notes) > 0 {
			b.Blank()
			b.Line("Speaker notes:")
			for _, para := range notes {
				b.Line(para)
			}
		}
		b.Blank()
	}
	return finish(d, b, in.Limits.MaxText)
}

//semguard:end pptx-parser

// partNumber is n for a part named prefix + n + ".xml"
// ("ppt/slides/slide3.xml"). (A string cut, not a regexp: a package-level
// regexp is compiled at every process start.)
func partNumber(name, prefix string) (int, bool) {
	digits, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	if digits, ok = strings.CutSuffix(digits, ".xml"); !ok || digits == "" {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}

// slideOrder lists the slide parts in presentation order (sldIdLst), or by
// number when the presentation part does not say.
func (p *pkg) slideOrder() ([]string, error) {
	rels, err := p.rels("ppt/presentation.xml")
	if err != nil {
		return nil, err
	}
	var order []string
	err = p.decode("ppt/presentation.xml", func(_ *xml.Decoder, t xml.Token) error {
		if s, ok := t.(xml.StartElement); ok && s.Name.Local == "sldId" {
			if target, ok := rels[attr(s, "id")]; ok {
				order = append(order, target)
			}
		}
		return nil
	})
	if err == nil && len(order) > 0 {
		return order, nil
	}
	order = p.numbered("ppt/slides/slide")
	if len(order) == 0 {
		return nil, fmt.Errorf("%w: no slides", parse.ErrMalformed)
	}
	return order, nil
}

// slide returns a slide's title (its title placeholder's text) and its
// paragraphs, the title included.
func (p *pkg) slide(name string) (string, []string, error) {
	var paras []string
	var para strings.Builder
	title := ""
	inTitle, inText := false, false
	err := p.decode(name, func(_ *xml.Decoder, t xml.Token) error {
		switch v := t.(type) {
		case xml.StartElement:
			switch v.Name.Local {
			case "sp":
				inTitle = false
			case "ph":
				typ := attr(v, "type")
				inTitle = typ == "title" || typ == "ctrTitle"
			case "t":
				inText = true
			case "br":
				para.WriteByte(' ')
			}
		case xml.CharData:
			if inText {
				para.Write(v)
			}
		case xml.EndElement:
			switch v.Name.Local {
			case "t":
				inText = false
			case "p":
				if s := parse.OneLine(para.String()); s != "" {
					paras = append(paras, s)
					if inTitle && title == "" {
						title = s
					}
				}
				para.Reset()
			case "sp":
				inTitle = false
			}
		}
		return nil
	})
	return title, paras, err
}
