package chunk

import "strings"

// markdownBlocks cuts a markdown document into headings, fenced code blocks
// and paragraphs. A fenced block is one block even when it holds blank lines,
// and '#' lines inside it are not headings. Tables and lists are ordinary
// paragraphs (runs of non-blank lines).
func markdownBlocks(l *lines) []block {
	p := mdParser{l: l}
	for i := 0; i < l.count(); i++ {
		i = p.line(i)
	}
	p.closeParagraph()
	setSectionEnds(p.out)
	return p.out
}

// mdParser holds the state of markdownBlocks.
type mdParser struct {
	l     *lines
	out   []block
	open  bool     // a paragraph is open
	para  int      // first line of the open paragraph
	last  int      // last line of the open paragraph
	stack []mdHead // enclosing headings, outermost first
	path  []string // titles of stack; replaced, never modified in place
}

type mdHead struct {
	level int
	title string
}

// line consumes line i (and more, for a fence) and returns the last line it
// consumed.
func (p *mdParser) line(i int) int {
	if p.l.blank[i] {
		p.closeParagraph()
		return i
	}
	text := p.l.line(i)
	if ch, n, ok := openFence(text); ok {
		p.closeParagraph()
		end := fenceEnd(p.l, i, ch, n)
		p.out = append(p.out, block{start: i, end: end, path: p.path})
		return end
	}
	if level, title, ok := atxHeading(text); ok {
		p.closeParagraph()
		p.push(level, title)
		p.out = append(p.out, block{start: i, end: i, level: level, path: p.path})
		return i
	}
	if !p.open {
		p.open, p.para = true, i
	}
	p.last = i
	return i
}

func (p *mdParser) closeParagraph() {
	if p.open {
		p.out = append(p.out, block{start: p.para, end: p.last, path: p.path})
		p.open = false
	}
}

// push records a heading: it closes every open heading of the same or a
// deeper level and becomes the innermost one.
func (p *mdParser) push(level int, title string) {
	n := len(p.stack)
	for n > 0 && p.stack[n-1].level >= level {
		n--
	}
	p.stack = append(p.stack[:n:n], mdHead{level, title})
	path := make([]string, 0, len(p.stack))
	for _, h := range p.stack {
		if h.title != "" {
			path = append(path, h.title)
		}
	}
	p.path = path
}

// setSectionEnds sets, for every heading, the last line of the blocks that
// follow it up to the next heading.
func setSectionEnds(blocks []block) {
	if len(blocks) == 0 {
		return
	}
	tail := blocks[len(blocks)-1].end
	for k := len(blocks) - 1; k >= 0; k-- {
		if !blocks[k].heading() {
			continue
		}
		blocks[k].sectionEnd = tail
		if k > 0 {
			tail = blocks[k-1].end
		}
	}
}

// openFence reports whether line opens a fenced code block: optional
// indentation, then at least three backticks or tildes. Any indentation is
// accepted, so fences nested in list items are recognised. A backtick fence's
// info string may not hold a backtick (CommonMark).
func openFence(line string) (ch byte, n int, ok bool) {
	t := strings.TrimLeft(line, " \t")
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, false
	}
	ch = t[0]
	for n < len(t) && t[n] == ch {
		n++
	}
	if n < 3 || (ch == '`' && strings.IndexByte(t[n:], '`') >= 0) {
		return 0, 0, false
	}
	return ch, n, true
}

// closesFence reports whether line closes a fence of n or more ch characters.
func closesFence(line string, ch byte, n int) bool {
	t := strings.TrimSpace(line)
	if len(t) < n {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != ch {
			return false
		}
	}
	return true
}

// fenceEnd returns the closing line of the fence opened at line open, or the
// last non-blank line of the document when the fence is never closed.
func fenceEnd(l *lines, open int, ch byte, n int) int {
	for i := open + 1; i < l.count(); i++ {
		if closesFence(l.line(i), ch, n) {
			return i
		}
	}
	return l.prevNonBlank(l.count()-1, open)
}

// atxHeading parses an ATX heading: up to three spaces, 1-6 '#', then a space,
// a tab or the end of the line. The title drops an optional closing '#' run.
func atxHeading(line string) (level int, title string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return 0, "", false
	}
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return 0, "", false
	}
	rest := t[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, "", false
	}
	return level, headingTitle(rest), true
}

// headingTitle trims a heading's text and its closing sequence ("## Title ##").
func headingTitle(rest string) string {
	t := strings.TrimSpace(rest)
	trimmed := strings.TrimRight(t, "#")
	if trimmed == "" {
		return ""
	}
	if trimmed != t && (strings.HasSuffix(trimmed, " ") || strings.HasSuffix(trimmed, "\t")) {
		t = strings.TrimSpace(trimmed)
	}
	return t
}
