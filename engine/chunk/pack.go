package chunk

import "strings"

// packer packs blocks greedily into chunks of at most o.Size runes.
type packer struct {
	l          *lines
	o          Options
	commonPath bool // section = common heading path of the blocks (markdown), else the first block's signature
	out        []Chunk
	cur        []block // blocks of the chunk being filled; contiguous in the text
	body       int     // number of non-heading blocks in cur
}

// pack adds every block and returns the chunks.
func (p *packer) pack(blocks []block) []Chunk {
	for _, b := range blocks {
		p.add(b)
	}
	if len(p.cur) > 0 {
		p.emit(p.cur)
	}
	return p.out
}

// add appends b to the current chunk, first closing the chunk when b does not
// fit, and cuts the result when b alone (with any headings that lead it) is
// larger than the size. A definition too large to stay whole is added as
// its members instead (b.kids), each packed the same way.
//
// A heading closes a chunk that already has body text when it is of level 1
// or 2 (top-level sections are separate topics) or when its whole section
// would not fit in the chunk (a subsection starts a fresh chunk rather than
// being split across two). A chunk holding only headings is never closed: the
// headings lead the text that follows them.
func (p *packer) add(b block) {
	if b.heading() && p.body > 0 && (b.level <= 2 || !p.fits(b.sectionEnd)) {
		p.flush()
	}
	if p.body > 0 && !p.fits(b.end) {
		p.flush()
	}
	if len(b.kids) > 0 && p.l.spanRunes(b.start, b.end) > p.o.Size {
		for _, k := range b.kids {
			p.add(k)
		}
		return
	}
	p.cur = append(p.cur, b)
	if !b.heading() {
		p.body++
	}
	if !p.fits(b.end) {
		p.cutLines(p.cur[0].start, b.end, p.section(p.cur))
		p.cur, p.body = p.cur[:0], 0
	}
}

// fits reports whether the current chunk extended to line end stays within
// the size.
func (p *packer) fits(end int) bool {
	return len(p.cur) == 0 || p.l.spanRunes(p.cur[0].start, end) <= p.o.Size
}

// flush emits the current chunk except its trailing headings, which stay to
// lead the next chunk.
func (p *packer) flush() {
	n := len(p.cur)
	for n > 0 && p.cur[n-1].heading() {
		n--
	}
	if n == 0 {
		return
	}
	p.emit(p.cur[:n])
	p.cur = append(p.cur[:0], p.cur[n:]...)
	p.body = 0
}

func (p *packer) emit(blocks []block) {
	s, e := blocks[0].start, blocks[len(blocks)-1].end
	p.out = append(p.out, Chunk{
		Text:      p.l.span(s, e),
		StartLine: s + 1,
		EndLine:   e + 1,
		Section:   p.section(blocks),
	})
}

// section labels a chunk: for markdown the heading path all its blocks share,
// for code the label of its first declaration (a block the language rules
// named), else the signature of its first block.
func (p *packer) section(blocks []block) string {
	if !p.commonPath {
		for _, b := range blocks {
			if b.decl {
				return b.sig
			}
		}
		return blocks[0].sig
	}
	var path []string
	seen := false
	for _, b := range blocks {
		if emptySection(b) {
			continue
		}
		if !seen {
			path, seen = b.path, true
		}
		path = commonPrefix(path, b.path)
	}
	if !seen {
		path = blocks[0].path
	}
	return strings.Join(path, " > ")
}

// emptySection reports whether b is a heading with no text of its own before
// the next heading ("# Title" right above "## Install"). Such a heading only
// introduces the next one, so it does not widen a chunk's section.
func emptySection(b block) bool {
	return b.heading() && b.sectionEnd == b.end
}

func commonPrefix(a, b []string) []string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}
