package chunk

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/autorag/autorag/engine/codedef"
)

// defTree is the definitions of a text as the chunker uses them: 0-based
// inclusive lines, and each definition's children in line order.
type defTree struct {
	l     *lines
	nodes []defNode
	top   []int // the top-level definitions, in line order
}

type defNode struct {
	start, end int    // 0-based lines, inclusive
	label      string // the definition's own label ("def get")
	kids       []int  // its children, in line order
}

// newDefTree checks defs against the text's lines: a definition whose
// lines fall outside the text is dropped, and one whose Parent does not
// precede it or does not enclose its lines is taken as top-level (so the
// tree has no cycles and a child never reaches out of its parent).
func newDefTree(l *lines, defs []codedef.Def) *defTree {
	t := &defTree{l: l, nodes: make([]defNode, len(defs))}
	valid := make([]bool, len(defs))
	for i, d := range defs {
		valid[i] = d.StartLine >= 1 && d.EndLine >= d.StartLine && d.EndLine <= l.count()
		t.nodes[i] = defNode{start: d.StartLine - 1, end: d.EndLine - 1, label: cleanSignature(d.Label)}
		if t.nodes[i].label == "" {
			t.nodes[i].label = cleanSignature(d.Kind + " " + d.Name)
		}
	}
	for i, d := range defs {
		if !valid[i] {
			continue
		}
		p := d.Parent
		if p >= 0 && p < i && valid[p] && t.nodes[p].start <= t.nodes[i].start && t.nodes[i].end <= t.nodes[p].end {
			t.nodes[p].kids = append(t.nodes[p].kids, i)
		} else {
			t.top = append(t.top, i)
		}
	}
	t.sortByLine(t.top)
	for i := range t.nodes {
		t.sortByLine(t.nodes[i].kids)
	}
	return t
}

// sortByLine orders definitions by first line, the wider first.
func (t *defTree) sortByLine(ids []int) {
	slices.SortStableFunc(ids, func(a, b int) int {
		if d := t.nodes[a].start - t.nodes[b].start; d != 0 {
			return d
		}
		return t.nodes[b].end - t.nodes[a].end
	})
}

// blocks cuts lines lo..hi-1 into blocks: one per definition of sibs
// (each carrying its members' blocks as kids, for when it is too large to
// stay whole) and, for the lines between them, the blocks codeBlocks
// finds. Inside a definition (parent != "") those in-between blocks are
// labelled with the parent's label. A definition that overlaps the one
// before it (two on one line) is merged into that one's block.
func (t *defTree) blocks(lo, hi int, sibs []int, parent string) []block {
	var out []block
	next := lo    // first line not yet in a block
	lastDef := -1 // index in out of the block of the definition that ended at next-1
	for _, i := range sibs {
		n := &t.nodes[i]
		switch {
		case n.end < next: // inside the one before
			continue
		case n.start < next && lastDef >= 0 && lastDef == len(out)-1:
			_, e := t.l.trim(out[lastDef].start, n.end)
			out[lastDef].end, out[lastDef].kids = max(out[lastDef].end, e), nil // merged: no longer split at members
		case n.start < next:
			out = t.gap(out, next, n.end+1, parent)
		default:
			out = t.gap(out, next, n.start, parent)
			lastDef = -1
			if b, ok := t.defBlock(i, parent); ok {
				out, lastDef = append(out, b), len(out)
			}
		}
		next = n.end + 1
	}
	return t.gap(out, next, hi, parent)
}

// gap appends the blocks of lines from..to-1, which hold no definition.
func (t *defTree) gap(out []block, from, to int, parent string) []block {
	if from >= to {
		return out
	}
	for _, b := range codeBlocks(t.l.sub(from, to)) {
		b = b.shift(from)
		if parent != "" {
			b.sig = parent
		}
		out = append(out, b)
	}
	return out
}

// defBlock is the block of definition i, labelled with its path from the
// top level; its kids are its members' blocks, the first of which (the
// definition's header, or its first member) is labelled as the
// definition.
func (t *defTree) defBlock(i int, parent string) (block, bool) {
	n := &t.nodes[i]
	s, e := t.l.trim(n.start, n.end)
	if s > e {
		return block{}, false
	}
	label := joinLabel(parent, n.label)
	b := block{start: s, end: e, sig: label, decl: true}
	if len(n.kids) > 0 {
		b.kids = t.blocks(n.start, n.end+1, n.kids, label)
		if len(b.kids) > 0 {
			b.kids[0].decl = true
		}
	}
	return b, true
}

// maxSection is the longest section label of a nested definition, in
// runes: the outermost containers are dropped to fit.
const maxSection = 2 * maxSignature

// joinLabel names a member by its container: "class Store > def get".
func joinLabel(parent, own string) string {
	if parent == "" {
		return own
	}
	full := parent + " > " + own
	for utf8.RuneCountInString(full) > maxSection {
		_, rest, ok := strings.Cut(full, " > ")
		if !ok || !strings.Contains(rest, " > ") {
			return own
		}
		full = rest
	}
	return full
}
