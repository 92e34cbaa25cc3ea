package email

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"strconv"

	"golang.org/x/net/html/charset"

	"github.com/autorag/autorag/mirror/parse"
)

//semguard:begin email-parser

// EML reads single messages.
type EML struct{}

// Name is the parser's name@version.
func (EML) Name() string { return "eml@4" }

// Parse reads one message.
func (EML) Parse(ctx context.Context, in *parse.Input) (*parse.Doc, error) {
	m, err := readMessage(ctx, in, in.Data)
	if err != nil {
		return nil, err
	}
	b := parse.NewBuilder(in.Limits.MaxText)
	m.write(b, m.subject) // the section a mailbox's message has too
	if b.Over() {
		return nil, fmt.Errorf("%w: text over %d bytes", parse.ErrTooLarge, in.Limits.MaxText)
	}
	d := &parse.Doc{Title: m.subject, Lang: "email", Fields: m.fields}
	m.addAttachments(d)
	d.Text, d.Parts = b.Text()
	return d, nil
}

// Mbox reads mailbox files.
type Mbox struct{}

// Name is the parser's name@version.
func (Mbox) Name() string { return "mbox@4" }

// maxMessages bounds the messages read from one mbox.
const maxMessages = 100000

// Parse reads every message of the mailbox.
func (Mbox) Parse(ctx context.Context, in *parse.Input) (*parse.Doc, error) {
	msgs := splitMbox(in.Data)
	if len(msgs) > maxMessages {
		return nil, fmt.Errorf("%w: %d messages", parse.ErrTooLarge, len(msgs))
	}
	b := parse.NewBuilder(in.Limits.MaxText)
	d := &parse.Doc{Lang: "email"}
	for i, raw := range msgs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, err := readMessage(ctx, in, raw)
		if errors.Is(err, errTextOver) {
			return nil, err
		}
		if err != nil {
			b.Part("message "+strconv.Itoa(i+1)+" (unreadable)", 0, "text")
			b.Line(err.Error())
			b.Blank()
			continue
		}
		if i == 0 {
			d.Fields = m.fields
		}
		label := m.subject
		if label == "" {
			label = "message " + strconv.Itoa(i+1)
		}
		m.write(b, label)
		m.addAttachments(d)
	}
	if b.Over() {
		return nil, fmt.Errorf("%w: text over %d bytes", parse.ErrTooLarge, in.Limits.MaxText)
	}
	d.Fields = append(d.Fields, parse.Field{Key: "messages", Value: strconv.Itoa(len(msgs))})
	d.Text, d.Parts = b.Text()
	return d, nil
}

//semguard:end email-parser

// splitMbox cuts an mbox at its "From " separator lines (mboxo/mboxrd:
// a line starting with "From " at the start of the file or after a blank
// line). Text before the first separator is a message too when not blank.
func splitMbox(data []byte) [][]byte {
	var out [][]byte
	start := 0
	prevBlank := true
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			next = off + end + 1
		}
		line := data[off:next]
		if prevBlank && bytes.HasPrefix(line, []byte("From ")) {
			if len(bytes.TrimSpace(data[start:off])) > 0 {
				out = append(out, data[start:off])
			}
			start = next
		}
		prevBlank = len(bytes.TrimRight(line, "\r\n")) == 0
		off = next
	}
	if len(bytes.TrimSpace(data[start:])) > 0 {
		out = append(out, data[start:])
	}
	for i, m := range out {
		out[i] = unescapeFrom(m)
	}
	return out
}

// unescapeFrom undoes mboxrd quoting: ">From " becomes "From " (one level).
func unescapeFrom(m []byte) []byte {
	if !bytes.Contains(m, []byte("\n>")) {
		return m
	}
	var buf bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(m))
	sc.Buffer(make([]byte, 64<<10), len(m)+1)
	for sc.Scan() {
		l := sc.Bytes()
		if t := bytes.TrimLeft(l, ">"); len(t) < len(l) && bytes.HasPrefix(t, []byte("From ")) {
			l = l[1:]
		}
		buf.Write(l)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// wordDecoder decodes RFC 2047 encoded words in any charset x/net knows.
var wordDecoder = &mime.WordDecoder{CharsetReader: func(label string, r io.Reader) (io.Reader, error) {
	return charset.NewReaderLabel(label, r)
}}

// header decodes a header's encoded words; undecodable ones stay as sent.
func header(h mail.Header, key string) string {
	v := h.Get(key)
	if d, err := wordDecoder.DecodeHeader(v); err == nil {
		v = d
	}
	return parse.OneLine(v)
}

// headerFields are the headers kept as fields, with their field keys.
var headerFields = [][2]string{{"From", "from"}, {"To", "to"}, {"Cc", "cc"}, {"Reply-To", "reply_to"}, {"Date", "date"},
	{"Subject", "subject"}, {"Message-Id", "message_id"}}
