package html

import (
	"context"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/autorag/autorag/mirror/parse"
)

// walker turns the content tree into lines.
type walker struct {
	ctx     context.Context
	b       *parse.Builder
	line    strings.Builder // inline text of the current block
	prefix  string          // "- " for a list item, "#.. " for a heading
	title   string
	firstH1 string
	fields  []parse.Field
	tags    []string
	steps   int
}

// meta reads <title>, the author, description and keywords meta tags and
// the page's declared language (<html lang>, as field "lang", which the
// engine prefers to detection).
func (w *walker) meta(n *xhtml.Node, depth int) {
	if depth > maxDepth {
		return
	}
	if n.Type == xhtml.ElementNode {
		switch n.DataAtom {
		case atom.Html:
			if lang := attr(n, "lang"); lang != "" {
				w.fields = append(w.fields, parse.Field{Key: "lang", Value: lang})
			}
		case atom.Title:
			if w.title == "" {
				w.title = parse.OneLine(textOf(n, 0))
			}
		case atom.Meta:
			name, content := strings.ToLower(attr(n, "name")), attr(n, "content")
			switch name {
			case "author", "description", "generator":
				w.fields = append(w.fields, parse.Field{Key: name, Value: content})
			case "keywords":
				for _, k := range strings.Split(content, ",") {
					w.tags = append(w.tags, strings.TrimSpace(k))
				}
			}
		case atom.Body:
			return
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.meta(c, depth+1)
	}
}

// walk emits the text under n.
func (w *walker) walk(n *xhtml.Node, depth int) {
	if w.steps++; depth > maxDepth || w.steps&1023 == 0 && w.ctx.Err() != nil || w.b.Over() {
		return
	}
	switch n.Type {
	case xhtml.TextNode:
		w.line.WriteString(n.Data)
		return
	case xhtml.ElementNode:
	case xhtml.DocumentNode:
		w.children(n, depth)
		return
	default:
		return
	}
	if dropped(n, true) {
		return
	}
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.heading(n, int(n.Data[1]-'0'))
	case atom.Pre:
		w.flush()
		w.b.Blank()
		for _, l := range strings.Split(strings.Trim(textOf(n, 0), "\n"), "\n") {
			w.b.Line(strings.TrimRight(l, " \t"))
		}
		w.b.Blank()
	case atom.Br:
		w.flush()
	case atom.Li, atom.Dt, atom.Dd:
		w.flush()
		w.prefix = "- "
		w.children(n, depth)
		w.flush()
	case atom.Tr:
		w.row(n)
	case atom.Td, atom.Th:
		w.children(n, depth)
		w.line.WriteString(" | ")
	case atom.Img:
		if alt := attr(n, "alt"); alt != "" {
			w.line.WriteString(" " + alt + " ")
		}
	default:
		if isBlock(n.DataAtom) {
			w.flush()
			w.children(n, depth)
			w.flush()
			w.b.Blank()
			return
		}
		w.children(n, depth)
	}
}

func (w *walker) children(n *xhtml.Node, depth int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c, depth+1)
	}
}

// heading emits a markdown heading line between blank lines.
func (w *walker) heading(n *xhtml.Node, level int) {
	w.flush()
	t := parse.OneLine(textOf(n, 0))
	if t == "" {
		return
	}
	if level == 1 && w.firstH1 == "" {
		w.firstH1 = t
	}
	w.b.Blank()
	w.b.Line(strings.Repeat("#", level) + " " + t)
	w.b.Blank()
}

// row emits a table row as one line, cells separated by " | ".
func (w *walker) row(n *xhtml.Node) {
	w.flush()
	var cells []string
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xhtml.ElementNode && (c.DataAtom == atom.Td || c.DataAtom == atom.Th) {
			cells = append(cells, parse.OneLine(textOf(c, 0)))
		}
	}
	if strings.Join(cells, "") != "" {
		w.b.Line(strings.Join(cells, " | "))
	}
}

// flush ends the current line of inline text.
func (w *walker) flush() {
	t := parse.OneLine(w.line.String())
	w.line.Reset()
	t = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(t, "|")), " ")
	if t == "" {
		w.prefix = ""
		return
	}
	if w.prefix == "" && strings.HasPrefix(t, "#") {
		t = `\` + t // body text, not a heading
	}
	w.b.Line(w.prefix + t)
	w.prefix = ""
}

// textOf concatenates the text under n, skipping dropped elements.
func textOf(n *xhtml.Node, depth int) string {
	if depth > maxDepth {
		return ""
	}
	if n.Type == xhtml.TextNode {
		return n.Data
	}
	if n.Type == xhtml.ElementNode && n.DataAtom != atom.Title && dropped(n, true) {
		return ""
	}
	var sb strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xhtml.ElementNode && c.DataAtom == atom.Br {
			sb.WriteByte('\n')
		}
		sb.WriteString(textOf(c, depth+1))
		if c.Type == xhtml.ElementNode && isBlock(c.DataAtom) {
			sb.WriteByte(' ')
		}
	}
	return sb.String()
}

// isBlock reports elements that start and end a line of text.
func isBlock(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Main, atom.Header, atom.Blockquote,
		atom.Ul, atom.Ol, atom.Dl, atom.Table, atom.Thead, atom.Tbody, atom.Tfoot, atom.Figure,
		atom.Figcaption, atom.Details, atom.Summary, atom.Address, atom.Hr, atom.Caption, atom.Body, atom.Html,
		atom.Center, atom.Fieldset, atom.Legend:
		return true
	}
	return false
}
