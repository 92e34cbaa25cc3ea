package email

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"slices"
	"strings"

	"golang.org/x/net/html/charset"

	"github.com/autorag/autorag/mirror/parse"
	"github.com/autorag/autorag/mirror/parse/html"
)

// maxDepth bounds multipart nesting; maxParts the MIME parts of a message.
const (
	maxDepth = 16
	maxParts = 1000
)

// message is one parsed e-mail.
type message struct {
	subject     string
	fields      []parse.Field
	headerLines []string
	plain, html []string // text bodies, in order
	htmlOver    bool     // HTML bodies dropped: more text than the limit
	attachments []attachment
}

type attachment struct {
	name   string
	parser string
	doc    *parse.Doc
}

// readMessage parses raw and its MIME tree.
func readMessage(ctx context.Context, in *parse.Input, raw []byte) (*message, error) {
	mm, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", parse.ErrMalformed, err)
	}
	m := &message{subject: header(mm.Header, "Subject")}
	for _, hf := range headerFields {
		if v := header(mm.Header, hf[0]); v != "" {
			m.fields = append(m.fields, parse.Field{Key: hf[1], Value: v})
			if hf[1] != "message_id" {
				m.headerLines = append(m.headerLines, hf[0]+": "+v)
			}
		}
	}
	w := &mimeWalker{ctx: ctx, in: in, m: m}
	if err := w.entity(textproto(mm.Header), mm.Body, 0); err != nil {
		return nil, err
	}
	if m.htmlOver && len(m.plain) == 0 {
		return nil, w.errMessageTooLarge()
	}
	return m, nil
}

// textproto gives a mail header the Get method multipart parts share.
func textproto(h mail.Header) getter { return h }

type getter interface{ Get(string) string }

// mimeWalker visits the MIME tree of one message.
type mimeWalker struct {
	ctx   context.Context
	in    *parse.Input
	m     *message
	parts int
	// What the message holds is charged as it grows, not once all of it
	// is held (a thousand small attachments can each expand to the text
	// limit): held is a lower bound of what write will write from the
	// plain bodies and attachments, html of what it would write from the
	// HTML bodies (written only when there is no plain one).
	held, html int
}

// errTextOver marks a message whose text cannot fit the limit: written
// out, it would have put the Builder over the limit, so a mailbox holding
// it is too large as a whole (unlike a message with too many parts, which
// a mailbox reports as unreadable and goes on).
var errTextOver = fmt.Errorf("%w: a message of more text than the limit", parse.ErrTooLarge)

func (w *mimeWalker) errMessageTooLarge() error {
	return fmt.Errorf("%w (%d bytes)", errTextOver, w.in.Limits.MaxText)
}

// charge counts n more bytes that write will certainly write.
func (w *mimeWalker) charge(n int) error {
	if w.held += n; w.held > w.in.Limits.MaxText {
		return w.errMessageTooLarge()
	}
	return nil
}

// keepHTML holds an HTML body unless those held already cannot fit (then
// they are dropped: the message is too large unless a plain body, which
// write prefers, comes later).
func (w *mimeWalker) keepHTML(text string) {
	if w.html += lineFloor(text); w.html > w.in.Limits.MaxText {
		w.m.html, w.m.htmlOver = nil, true
		return
	}
	w.m.html = append(w.m.html, text)
}

// entity reads one MIME entity: a multipart container, a text body or an
// attachment.
func (w *mimeWalker) entity(h getter, body io.Reader, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if w.parts++; w.parts > maxParts || depth > maxDepth {
		return fmt.Errorf("%w: more than %d MIME parts or %d levels", parse.ErrTooLarge, maxParts, maxDepth)
	}
	ctype, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		ctype, params = "text/plain", map[string]string{"charset": "us-ascii"}
	}
	if strings.HasPrefix(ctype, "multipart/") && params["boundary"] != "" {
		return w.multipart(body, params["boundary"], depth)
	}
	body = &guard{ctx: w.ctx, r: body}
	data, err := io.ReadAll(&guard{ctx: w.ctx, r: io.LimitReader(decodeTransfer(h.Get("Content-Transfer-Encoding"), body), w.in.Limits.MaxUnpacked+1)})
	if err != nil {
		data = nil // a damaged body yields what could be read
	}
	if int64(len(data)) > w.in.Limits.MaxUnpacked {
		return fmt.Errorf("%w: a MIME part over %d bytes", parse.ErrTooLarge, w.in.Limits.MaxUnpacked)
	}
	if name := filename(h); name != "" {
		return w.attach(name, data)
	}
	switch ctype {
	case "text/plain", "":
		t := decodeCharset(data, params["charset"])
		w.m.plain = append(w.m.plain, t)
		w.m.html = nil // not written when there is a plain body
		return w.charge(lineFloor(t))
	case "text/html":
		d, err := html.Extract(w.ctx, []byte(decodeCharset(data, params["charset"])), w.in.Limits.MaxText)
		if err == nil && len(w.m.plain) == 0 {
			w.keepHTML(d.Text)
		}
	}
	return nil
}

// multipart visits the parts of a multipart entity.
func (w *mimeWalker) multipart(body io.Reader, boundary string, depth int) error {
	mr := multipart.NewReader(body, boundary)
	for {
		p, err := mr.NextRawPart()
		if err != nil {
			return nil // io.EOF, or a damaged tail: keep what was read
		}
		if err := w.entity(p.Header, p, depth+1); err != nil {
			return err
		}
	}
}

// attach parses an attachment that a parser handles.
func (w *mimeWalker) attach(name string, data []byte) error {
	if w.in.Nested == nil {
		return nil
	}
	d, parser, ok, err := w.in.Nested(w.ctx, name, data)
	if !ok || err != nil || d == nil {
		if cerr := w.ctx.Err(); cerr != nil {
			return cerr
		}
		return nil // unsupported or unreadable attachments are left out
	}
	w.m.attachments = append(w.m.attachments, attachment{name, parser, d})
	return w.charge(appendFloor(d))
}

// lineFloor is at most what Builder.Line writes of a body (write trims its
// line ends; Line turns CRLF into LF).
func lineFloor(body string) int {
	t := strings.TrimRight(body, "\n")
	return len(t) - strings.Count(t, "\r\n")
}

// appendFloor is at most what Builder.Append writes of d: its lines from
// the first part's on, each with a line end.
func appendFloor(d *parse.Doc) int {
	text := d.Text
	if len(d.Parts) > 0 {
		for range d.Parts[0].Line {
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				return 0
			}
			text = text[i+1:]
		}
	}
	return len(strings.TrimSuffix(text, "\n"))
}

// filename is the attachment's file name, or "" for an inline body.
func filename(h getter) string {
	if _, p, err := mime.ParseMediaType(h.Get("Content-Disposition")); err == nil && p["filename"] != "" {
		return decodeWord(p["filename"])
	}
	if _, p, err := mime.ParseMediaType(h.Get("Content-Type")); err == nil && p["name"] != "" {
		return decodeWord(p["name"])
	}
	return ""
}

func decodeWord(s string) string {
	if d, err := wordDecoder.DecodeHeader(s); err == nil {
		return d
	}
	return s
}

// decodeTransfer undoes a Content-Transfer-Encoding.
func decodeTransfer(cte string, r io.Reader) io.Reader {
	switch strings.ToLower(strings.TrimSpace(cte)) {
	case "base64":
		return base64.NewDecoder(base64.StdEncoding, &stripSpace{r: r})
	case "quoted-printable":
		return quotedprintable.NewReader(r)
	}
	return r
}

// stripSpace drops the line breaks and spaces inside base64 bodies.
type stripSpace struct{ r io.Reader }

func (s *stripSpace) Read(p []byte) (int, error) {
	for {
		n, err := s.r.Read(p)
		j := 0
		for _, c := range p[:n] {
			if c != '\r' && c != '\n' && c != ' ' && c != '\t' {
				p[j] = c
				j++
			}
		}
		if j > 0 || n == 0 || err != nil {
			return j, err
		}
	}
}

// guard stops a read chain that is cancelled or makes no progress: some
// decoders loop forever on a reader that keeps returning (0, nil).
type guard struct {
	ctx   context.Context
	r     io.Reader
	empty int
}

func (g *guard) Read(p []byte) (int, error) {
	if err := g.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := g.r.Read(p)
	if n == 0 && err == nil && len(p) > 0 {
		if g.empty++; g.empty > 100 {
			return 0, io.ErrNoProgress
		}
	} else {
		g.empty = 0
	}
	return n, err
}

// decodeCharset converts a text body to UTF-8 from its declared charset,
// or by parse.Decode's guess when it declares none it knows.
func decodeCharset(data []byte, label string) string {
	if label != "" && !strings.EqualFold(label, "utf-8") && !strings.EqualFold(label, "us-ascii") {
		if enc, _ := charset.Lookup(label); enc != nil {
			if out, err := enc.NewDecoder().Bytes(data); err == nil {
				return string(out)
			}
		}
	}
	out, _, err := parse.Decode(data)
	if err != nil {
		return string(bytes.ReplaceAll(data, []byte{0}, nil))
	}
	return string(out)
}

// write emits the message: its headers and body as one part labelled
// label, then each attachment.
func (m *message) write(b *parse.Builder, label string) {
	b.Part(label, 0, "text")
	for _, l := range m.headerLines {
		b.Line(l)
	}
	b.Blank()
	bodies := m.plain
	if len(bodies) == 0 {
		bodies = m.html
	}
	for _, body := range bodies {
		b.Line(strings.TrimRight(body, "\n"))
		b.Blank()
	}
	for _, a := range m.attachments {
		prefix := "attachment: " + a.name
		if label != "" {
			prefix = label + " > " + prefix
		}
		b.Append(a.doc, prefix, a.name, "text")
	}
}

// addAttachments adds the metadata of m's attachments to d, skipping names
// d already has (an attachment's entry is its name). An attachment's fields
// are its own plus its message's headers it has no field of that name for,
// so "--type pdf --filter from=..." finds the PDFs someone sent.
func (m *message) addAttachments(d *parse.Doc) {
	for _, a := range m.attachments {
		name := parse.OneLine(a.name)
		if slices.ContainsFunc(d.Attachments, func(x parse.Attachment) bool { return x.Name == name }) {
			continue
		}
		fields := parse.SortFields(slices.Concat(a.doc.Fields, m.fields))
		d.Attachments = append(d.Attachments, parse.Attachment{Name: name, Parser: a.parser, Title: a.doc.Title,
			Lang: a.doc.Lang, Tags: a.doc.Tags, Fields: fields})
	}
}
