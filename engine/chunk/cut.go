package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// cutLines emits lines s..e, which together exceed the size, as pieces of
// whole lines. A piece ends at the last line that fits, or earlier at a blank
// line when that leaves the piece at least half full, so paragraphs and
// functions inside a large block stay whole where they can. Each piece starts
// with the trailing lines of the previous piece that fit within the overlap.
// A line longer than the size becomes pieces of its own (cutLine).
func (p *packer) cutLines(s, e int, section string) {
	prevStart, prevEnd := -1, s-1
	for {
		next := p.l.nextNonBlank(prevEnd+1, e)
		if next < 0 {
			return
		}
		if p.l.lineRunes(next) > p.o.Size {
			p.cutLine(next, section)
			prevStart, prevEnd = -1, next
			continue
		}
		start := p.overlapStart(prevStart, prevEnd, next)
		end := p.extend(start, next, e)
		p.out = append(p.out, Chunk{Text: p.l.span(start, end), StartLine: start + 1, EndLine: end + 1, Section: section})
		prevStart, prevEnd = start, end
	}
}

// overlapStart returns the first line of the piece that brings in line next:
// the earliest non-blank line after prevStart from which the previous piece's
// tail (through prevEnd) stays within the overlap and the piece through next
// within the size; next itself when there is no such line.
func (p *packer) overlapStart(prevStart, prevEnd, next int) int {
	start := next
	if prevStart < 0 {
		return start
	}
	for j := prevEnd; j > prevStart; j-- {
		if p.l.spanRunes(j, prevEnd) > p.o.Overlap || p.l.spanRunes(j, next) > p.o.Size {
			break
		}
		if !p.l.blank[j] {
			start = j
		}
	}
	return start
}

// extend returns the last line of the piece that starts at line start and
// must hold line next: as many lines up to e as fit, stopping before a line
// longer than the size, then backed off to a paragraph break if that keeps the
// piece at least half full.
func (p *packer) extend(start, next, e int) int {
	end := next
	full := false
	for j := next + 1; j <= e; j++ {
		if p.l.blank[j] {
			continue
		}
		if p.l.lineRunes(j) > p.o.Size {
			break
		}
		if p.l.spanRunes(start, j) > p.o.Size {
			full = true
			break
		}
		end = j
	}
	if !full {
		return end
	}
	for c := end - 1; c >= next && p.l.spanRunes(start, c) >= p.o.Size/2; c-- {
		if p.l.blank[c+1] && !p.l.blank[c] {
			return c
		}
	}
	return end
}

// cutLine emits line i, longer than the size, as pieces of at most Size
// runes. A piece ends at white space when that keeps it at least half full,
// else hard at a rune boundary. The next piece starts up to Overlap runes
// before the end of the previous one, moved forward to a word start when the
// overlap begins inside a word. Pieces carry no leading or trailing white
// space.
func (p *packer) cutLine(i int, section string) {
	line := p.l.line(i)
	pos := skipSpace(line, 0)
	for pos < len(line) {
		cut := advance(line, pos, p.o.Size)
		if cut < len(line) {
			cut = spaceCut(line, pos, cut, p.o.Size-p.o.Size/2)
		}
		piece := strings.TrimRightFunc(line[pos:cut], unicode.IsSpace)
		p.out = append(p.out, Chunk{Text: piece, StartLine: i + 1, EndLine: i + 1, Section: section})
		if skipSpace(line, cut) >= len(line) {
			return
		}
		pos = overlapBack(line, pos, cut, p.o.Overlap)
	}
}

// advance returns the byte offset n runes after pos, or len(s).
func advance(s string, pos, n int) int {
	for ; n > 0 && pos < len(s); n-- {
		_, w := utf8.DecodeRuneInString(s[pos:])
		pos += w
	}
	return pos
}

// spaceCut returns the offset of the last white space in s[pos:end] found
// within maxBack runes of end, or end when there is none.
func spaceCut(s string, pos, end, maxBack int) int {
	for b, k := end, 0; b > pos && k < maxBack; k++ {
		r, w := utf8.DecodeLastRuneInString(s[:b])
		b -= w
		if unicode.IsSpace(r) {
			return b
		}
	}
	return end
}

// overlapBack returns where the piece after s[pos:cut] starts: overlap runes
// before cut, moved forward to the next word start when that falls inside a
// word, and always after pos so that cutting advances.
func overlapBack(s string, pos, cut, overlap int) int {
	b := cut
	for k := 0; k < overlap && b > pos; k++ {
		_, w := utf8.DecodeLastRuneInString(s[:b])
		b -= w
	}
	if b <= pos {
		b = cut
	}
	if b < cut && insideWord(s, b) {
		if i := strings.IndexFunc(s[b:cut], unicode.IsSpace); i >= 0 {
			b += i
		}
	}
	return skipSpace(s, b)
}

// insideWord reports whether offset b splits two non-space runes.
func insideWord(s string, b int) bool {
	if b == 0 || b >= len(s) {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(s[:b])
	after, _ := utf8.DecodeRuneInString(s[b:])
	return !unicode.IsSpace(before) && !unicode.IsSpace(after)
}

// skipSpace returns the offset of the first non-space rune at or after pos.
func skipSpace(s string, pos int) int {
	for pos < len(s) {
		r, w := utf8.DecodeRuneInString(s[pos:])
		if !unicode.IsSpace(r) {
			return pos
		}
		pos += w
	}
	return pos
}
