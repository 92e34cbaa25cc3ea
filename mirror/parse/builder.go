package parse

import (
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Builder assembles a Doc's text line by line, with its parts, and stops
// growing once it holds more than max bytes (Over then reports it).
type Builder struct {
	sb    strings.Builder
	lines int
	parts []Part
	max   int
	over  bool
}

// NewBuilder returns a Builder that holds at most max bytes of text.
func NewBuilder(max int) *Builder { return &Builder{max: max} }

// Part starts a new part at the next line. A part with no lines before the
// next one is dropped.
func (b *Builder) Part(section string, page int, kind string) {
	p := Part{Line: b.lines, Section: oneLine(section), Page: page, Kind: kind}
	if n := len(b.parts); n > 0 && b.parts[n-1].Line == b.lines {
		b.parts[n-1] = p
		return
	}
	b.parts = append(b.parts, p)
}

// Line appends s and a line end. Line ends inside s (CRLF, CR, LF) become
// lines of their own, words hyphenated at one of them are joined
// (JoinHyphens) and control characters dropped (DropControls); NUL bytes
// become spaces.
func (b *Builder) Line(s string) {
	if b.over {
		return
	}
	if b.sb.Len()+len(s) > b.max {
		b.over = true
		return
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\x00", " ")
	s = DropControls(JoinHyphens(s))
	b.sb.WriteString(s)
	b.sb.WriteByte('\n')
	b.lines += strings.Count(s, "\n") + 1
}

// Blank appends an empty line unless the text is empty or already ends
// with one (so paragraphs are separated by exactly one blank line).
func (b *Builder) Blank() {
	t := b.sb.String()
	if t == "" || strings.HasSuffix(t, "\n\n") {
		return
	}
	b.Line("")
}

// Room is how many more bytes of text the Builder takes. A parser that
// assembles a line from pieces (cells, attachments) checks what it holds
// against Room as it goes, so that no input makes it hold more than the
// limit before a Line call would refuse it.
func (b *Builder) Room() int { return max(b.max-b.sb.Len(), 0) }

// Over reports whether text was dropped because of the size limit.
func (b *Builder) Over() bool { return b.over }

// Lines is the number of lines written so far.
func (b *Builder) Lines() int { return b.lines }

// Text returns the text (valid UTF-8, NFC) and its parts, without parts
// that hold no line.
func (b *Builder) Text() (string, []Part) {
	text := norm.NFC.String(strings.ToValidUTF8(b.sb.String(), string(utf8.RuneError)))
	parts := slices.Clone(b.parts)
	if n := len(parts); n > 0 && parts[n-1].Line >= b.lines {
		parts = parts[:n-1]
	}
	return text, parts
}

// oneLine collapses white space, line ends included, and replaces invalid
// UTF-8 with U+FFFD.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ToValidUTF8(s, string(utf8.RuneError))), " ")
}

// OneLine collapses white space in s, line ends included.
func OneLine(s string) string { return oneLine(s) }

// SortFields sorts fields by key, drops empty values and keeps the first of
// repeated keys. Keys are lowercased and values put on one line.
func SortFields(fs []Field) []Field {
	out := make([]Field, 0, len(fs))
	seen := map[string]bool{}
	for _, f := range fs {
		k, v := strings.ToLower(strings.TrimSpace(f.Key)), oneLine(f.Value)
		if k == "" || v == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, Field{k, v})
	}
	slices.SortFunc(out, func(a, b Field) int { return strings.Compare(a.Key, b.Key) })
	if len(out) == 0 {
		return nil
	}
	return out
}

// Append adds the text of d under the section label prefix: each of d's
// parts (or d as one part of kind when it has none) becomes a part whose
// section is "prefix > part section" and whose Attachment is attachment.
func (b *Builder) Append(d *Doc, prefix, attachment, kind string) {
	lines := strings.Split(strings.TrimSuffix(d.Text, "\n"), "\n")
	parts := d.Parts
	if len(parts) == 0 {
		parts = []Part{{Kind: kind}}
	}
	for i, p := range parts {
		end := len(lines)
		if i+1 < len(parts) {
			end = min(parts[i+1].Line, len(lines))
		}
		sec := prefix
		if p.Section != "" {
			sec += " > " + p.Section
		}
		b.Part(sec, p.Page, p.Kind)
		b.parts[len(b.parts)-1].Attachment = oneLine(attachment)
		for _, l := range lines[min(p.Line, end):end] {
			b.Line(l)
		}
		b.Blank()
	}
}
