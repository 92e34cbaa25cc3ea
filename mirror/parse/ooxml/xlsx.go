package ooxml

import (
	"context"
	"encoding/xml"
	"errors"
	"strings"

	"github.com/autorag/autorag/mirror/parse"
)

//semguard:begin xlsx-parser

// XLSX reads Excel workbooks.
type XLSX struct{}

// Name is the parser's name@version.
func (XLSX) Name() string { return "xlsx@2" }

// Parse extracts every sheet as a part "Sheet: name", one row per line.
func (XLSX) Parse(ctx context.Context, in *parse.Input) (*parse.Doc, error) {
	p, err := openPkg(ctx, in)
	if err != nil {
		return nil, err
	}
	d := &parse.Doc{Lang: "xlsx"}
	if d.Fields, d.Title, d.Tags, err = p.properties(); err != nil {
		return nil, err
	}
	shared, err := p.sharedStrings(in.Limits.MaxText)
	if err != nil {
		return nil, err
	}
	sheets, err := p.sheets()
	if err != nil {
		return nil, err
	}
	b := parse.NewBuilder(in.Limits.MaxText)
	for _, s := range sheets {
		b.Part("Sheet: "+s.name, 0, "text")
		if err := p.sheet(s.part, shared, b); err != nil {
			return nil, err
		}
		if b.Over() {
			break
		}
		b.Blank()
	}
	return finish(d, b, in.Limits.MaxText)
}

//semguard:end xlsx-parser

type sheetRef struct{ name, part string }

// sheets lists the worksheets in workbook order.
func (p *pkg) sheets() ([]sheetRef, error) {
	rels, err := p.rels("xl/workbook.xml")
	if err != nil {
		return nil, err
	}
	var out []sheetRef
	err = p.decode("xl/workbook.xml", func(_ *xml.Decoder, t xml.Token) error {
		if s, ok := t.(xml.StartElement); ok && s.Name.Local == "sheet" {
			if target, ok := rels[attr(s, "id")]; ok {
				out = append(out, sheetRef{attr(s, "name"), target})
			}
		}
		return nil
	})
	return out, err
}

// sharedStrings reads the shared string table; its total size is bounded
// by max bytes.
func (p *pkg) sharedStrings(max int) ([]string, error) {
	var out []string
	var cur strings.Builder
	total, inText := 0, false
	err := p.decode("xl/sharedStrings.xml", func(_ *xml.Decoder, t xml.Token) error {
		switch v := t.(type) {
		case xml.StartElement:
			inText = v.Name.Local == "t"
		case xml.CharData:
			if inText {
				cur.Write(v)
			}
		case xml.EndElement:
			switch v.Name.Local {
			case "t":
				inText = false
			case "si":
				total += cur.Len()
				if total > max {
					return parse.ErrTooLarge
				}
				out = append(out, parse.OneLine(cur.String()))
				cur.Reset()
			}
		}
		return nil
	})
	if errors.Is(err, errNoPart) {
		return nil, nil
	}
	return out, err
}

// sheet writes one worksheet's non-empty rows, each as its cells joined
// by " | " less trailing blanks and bars. The row is assembled as its cells
// are read and charged against the Builder's room (rowLine): cells that
// refer to one long shared string would otherwise copy it once per cell
// before the row is written.
func (p *pkg) sheet(part string, shared []string, b *parse.Builder) error {
	var row rowLine
	var val strings.Builder
	typ, inVal := "", false
	return p.decode(part, func(_ *xml.Decoder, t xml.Token) error {
		switch v := t.(type) {
		case xml.StartElement:
			switch v.Name.Local {
			case "row":
				row.reset()
			case "c":
				typ = attr(v, "t")
				val.Reset()
			case "v", "t":
				inVal = true
			}
		case xml.CharData:
			if inVal {
				val.Write(v)
			}
		case xml.EndElement:
			switch v.Name.Local {
			case "v", "t":
				inVal = false
			case "c":
				if !row.add(cellValue(typ, val.String(), shared), b.Room()) {
					return parse.ErrTooLarge
				}
			case "row":
				if line := row.line(); line != "" {
					b.Line(line)
				}
				if b.Over() {
					return parse.ErrTooLarge
				}
			}
		}
		return nil
	})
}

// rowLine is strings.TrimRight(strings.Join(cells, " | "), " |") built
// one cell at a time, holding at most about room bytes: once what it holds
// passes room, only blanks and bars may follow (they would be trimmed);
// anything else makes the line too long, which add reports at once.
type rowLine struct {
	sb    strings.Builder
	cells int
	seps  int  // separators owed before the next non-empty cell
	solid int  // length through the last byte that is not ' ' or '|'
	full  bool // past room: only trimmable cells may follow
}

func (r *rowLine) reset() { r.sb.Reset(); *r = rowLine{} }

// add appends cell c; false means the line cannot fit in room bytes.
func (r *rowLine) add(c string, room int) bool {
	if r.cells++; r.cells > 1 {
		r.seps++
	}
	if c == "" {
		return true
	}
	keep := len(strings.TrimRight(c, " |"))
	if r.full {
		return keep == 0
	}
	start := r.sb.Len() + r.seps*len(" | ")
	if keep > 0 && start+keep > room {
		return false
	}
	for ; r.seps > 0; r.seps-- {
		r.sb.WriteString(" | ")
	}
	if r.sb.Len()+len(c) > room {
		r.full = true // c is trimmable past room: only its start can stay
		c = c[:room-r.sb.Len()]
	}
	r.sb.WriteString(c)
	if keep > 0 {
		r.solid = start + keep
	}
	return true
}

// line is the row as one line: trailing blanks and bars dropped.
func (r *rowLine) line() string {
	return strings.TrimRight(r.sb.String()[:max(r.solid, 0)], " |")
}

// cellValue renders a cell: shared strings looked up, booleans as
// TRUE/FALSE, anything else as stored.
func cellValue(typ, v string, shared []string) string {
	v = parse.OneLine(v)
	switch typ {
	case "s":
		i := 0
		for _, c := range v {
			if c < '0' || c > '9' || i > len(shared) {
				return ""
			}
			i = i*10 + int(c-'0')
		}
		if i < len(shared) {
			return shared[i] // on one line already
		}
		return ""
	case "b":
		if v == "1" {
			return "TRUE"
		}
		return "FALSE"
	}
	return v
}
