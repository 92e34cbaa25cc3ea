package chunk

// block is a unit the packer never splits unless it alone exceeds the size:
// a paragraph, a fenced code block, a heading line, a top-level code block.
type block struct {
	start, end int      // 0-based line indices, inclusive; both lines are non-blank
	level      int      // a markdown heading line's level 1..6; 0 for any other block
	sectionEnd int      // heading only: last line before the next heading
	path       []string // markdown heading path
	sig        string   // code: the block's signature
	decl       bool     // code: sig names a declaration (a syntax parser or a language rule found it)
	kids       []block  // code: a definition's members and the lines between them, which the packer uses when the definition is too large to stay whole
}

// heading reports whether b is a markdown heading line.
func (b *block) heading() bool { return b.level > 0 }

// paragraphs returns the runs of non-blank lines of text.
func paragraphs(l *lines) []block {
	var out []block
	for i := 0; i < l.count(); i++ {
		if l.blank[i] {
			continue
		}
		start := i
		for i+1 < l.count() && !l.blank[i+1] {
			i++
		}
		out = append(out, block{start: start, end: i})
	}
	return out
}

// shift moves a block found in a sub-range starting at line off back into
// the whole text's line numbers.
func (b block) shift(off int) block {
	b.start += off
	b.end += off
	if b.sectionEnd != 0 {
		b.sectionEnd += off
	}
	return b
}
