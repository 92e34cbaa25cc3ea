package chunk

// block is a unit the packer never splits unless it alone exceeds the size:
// a paragraph, a fenced code block, a heading line, a top-level code block.
type block struct {
	start, end int      // 0-based line indices, inclusive; both lines are non-blank
	heading    bool     // a markdown heading line
	level      int      // heading level 1..6
	sectionEnd int      // heading only: last line before the next heading
	path       []string // markdown heading path, or the code block's signature
}

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
