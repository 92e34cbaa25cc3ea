package html

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"

	"github.com/autorag/autorag/mirror/parse"
)

//semguard:begin html-parser

// Parser reads HTML pages.
type Parser struct{}

// Name is the parser's name@version.
func (Parser) Name() string { return "html@3" }

// maxDepth bounds the element nesting the walk descends into.
const maxDepth = 512

// Parse extracts the page's text.
func (Parser) Parse(ctx context.Context, in *parse.Input) (*parse.Doc, error) {
	return Extract(ctx, in.Data, in.Limits.MaxText)
}

// Extract parses an HTML document (bytes in any encoding) and returns its
// text; maxText bounds the text kept.
func Extract(ctx context.Context, data []byte, maxText int) (*parse.Doc, error) {
	text, err := decode(data)
	if err != nil {
		return nil, err
	}
	root, err := xhtml.Parse(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", parse.ErrMalformed, err)
	}
	w := &walker{ctx: ctx, b: parse.NewBuilder(maxText)}
	w.meta(root, 0)
	content := findContent(root, 0)
	if content == nil {
		content = root
	}
	w.b.Part("", 0, "markdown")
	w.walk(content, 0)
	w.flush()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d := &parse.Doc{Title: w.title, Lang: "html", Fields: w.fields, Tags: w.tags}
	d.Text, d.Parts = w.b.Text()
	if d.Title == "" {
		d.Title = w.firstH1
	}
	return d, nil
}

//semguard:end html-parser

// decode converts the page to UTF-8 the way a browser picks its encoding
// (HTML5 § 13.2.3): a BOM or a charset the prescan finds in the first
// 1,024 bytes, else a <meta> charset the tokenizer meets further on (the
// parser's change of encoding), else parse.Decode's detection.
func decode(data []byte) (string, error) {
	enc, name, certain := charset.DetermineEncoding(data[:min(len(data), 1024)], "")
	if !certain {
		enc, name = lateMeta(data)
	}
	if enc != nil && name != "utf-8" {
		out, err := enc.NewDecoder().Bytes(data)
		if err == nil {
			return string(bytes.TrimPrefix(out, []byte("\uFEFF"))), nil
		}
	}
	out, _, err := parse.Decode(data)
	if err == parse.ErrBinary {
		out, err = bytes.ReplaceAll(data, []byte{0}, nil), nil
	}
	return string(out), err
}

// lateMeta finds the first <meta charset> or <meta http-equiv=content-type>
// of the document as the tokenizer sees it (so not one inside a script or
// a comment), and returns its encoding; nil when there is none or it is
// unknown. A UTF-16 label means UTF-8, as in the HTML standard.
func lateMeta(data []byte) (encoding.Encoding, string) {
	z := xhtml.NewTokenizer(bytes.NewReader(data))
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return nil, ""
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			if label := metaLabel(z); label != "" {
				enc, name := charset.Lookup(label)
				if strings.HasPrefix(name, "utf-16") {
					return nil, "utf-8"
				}
				return enc, name
			}
		}
	}
}

// metaLabel is the charset label of the tag the tokenizer stands on, if it
// is a <meta> that declares one.
func metaLabel(z *xhtml.Tokenizer) string {
	tag, hasAttr := z.TagName()
	if string(tag) != "meta" {
		return ""
	}
	var label, content string
	var httpEquiv bool
	for hasAttr {
		var k, v []byte
		k, v, hasAttr = z.TagAttr()
		switch string(k) {
		case "charset":
			label = string(v)
		case "http-equiv":
			httpEquiv = strings.EqualFold(strings.TrimSpace(string(v)), "content-type")
		case "content":
			content = string(v)
		}
	}
	if label == "" && httpEquiv {
		if _, params, err := mime.ParseMediaType(content); err == nil {
			label = params["charset"]
		}
	}
	return strings.TrimSpace(label)
}

// findContent returns the first <main> or <article> element (outside
// dropped chrome), or nil.
func findContent(n *xhtml.Node, depth int) *xhtml.Node {
	if depth > maxDepth {
		return nil
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != xhtml.ElementNode || dropped(c, false) {
			continue
		}
		if c.DataAtom == atom.Main || c.DataAtom == atom.Article || attr(c, "role") == "main" {
			return c
		}
		if f := findContent(c, depth+1); f != nil {
			return f
		}
	}
	return nil
}

// dropped reports elements that are never content. A <header> is chrome
// only outside the main content.
func dropped(n *xhtml.Node, inContent bool) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Svg, atom.Nav, atom.Aside,
		atom.Footer, atom.Form, atom.Button, atom.Select, atom.Iframe, atom.Object, atom.Canvas, atom.Head:
		return true
	case atom.Header:
		if !inContent {
			return true
		}
	}
	if _, hidden := attrOK(n, "hidden"); hidden || attr(n, "aria-hidden") == "true" {
		return true
	}
	switch attr(n, "role") {
	case "navigation", "banner", "contentinfo", "complementary", "search":
		return true
	}
	return false
}

func attr(n *xhtml.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *xhtml.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return strings.TrimSpace(a.Val), true
		}
	}
	return "", false
}
