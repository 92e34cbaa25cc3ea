package chunk

import (
	"slices"
	"strings"

	"github.com/autorag/autorag/engine/codedef"
)

// Def is a definition a chunk holds.
type Def struct {
	Name string // the defined identifier
	Kind string // a codedef.Kind* constant
	Line int    // 1-based line (in the input text) that names it, past its doc comment and decorators
}

// lineDef is a definition found at a 0-based line.
type lineDef struct {
	line       int
	name, kind string
}

// maxNameScan bounds the lines nameLine reads past a definition's first
// line (a long doc comment) looking for the line that names it.
const maxNameScan = 64

// syntaxDefs turns a parser's definitions into lineDefs at the line that
// names each one; nameless definitions (a Go declaration group) and those
// outside the text are left out.
func syntaxDefs(l *lines, defs []codedef.Def) []lineDef {
	out := make([]lineDef, 0, len(defs))
	for _, d := range defs {
		if d.Name == "" || d.StartLine < 1 || d.EndLine < d.StartLine || d.EndLine > l.count() {
			continue
		}
		out = append(out, lineDef{line: nameLine(l, d.StartLine-1, d.EndLine-1, d.Name), name: d.Name, kind: d.Kind})
	}
	return out
}

// nameLine is the first line of s..e that holds name as a word and is not
// a comment or decorator; else the first non-blank line (s when all are
// blank), which a chunk always covers.
func nameLine(l *lines, s, e int, name string) int {
	for i := s; i <= e && i <= s+maxNameScan; i++ {
		line := strings.TrimSpace(l.line(i))
		if line != "" && !isCommentLike(line) && hasWord(line, name) {
			return i
		}
	}
	if i := l.nextNonBlank(s, e); i >= 0 {
		return i
	}
	return s
}

// hasWord reports whether name occurs in s not inside a longer identifier.
func hasWord(s, name string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], name)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(name)
		if (i == 0 || !isIdentByte(s[i-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return true
		}
		off = i + 1
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// attachDefs gives each chunk the definitions named on its lines. The
// pieces of one line longer than the size share their lines, so only the
// first piece gets that line's definitions.
func attachDefs(chunks []Chunk, defs []lineDef) {
	if len(defs) == 0 {
		return
	}
	slices.SortStableFunc(defs, func(a, b lineDef) int { return a.line - b.line })
	for k := range chunks {
		c := &chunks[k]
		if k > 0 && c.StartLine == c.EndLine && chunks[k-1].EndLine == c.StartLine && chunks[k-1].StartLine == c.StartLine {
			continue
		}
		i, _ := slices.BinarySearchFunc(defs, c.StartLine-1, func(d lineDef, line int) int { return d.line - line })
		for ; i < len(defs) && defs[i].line <= c.EndLine-1; i++ {
			c.Defs = append(c.Defs, Def{Name: defs[i].name, Kind: defs[i].kind, Line: defs[i].line + 1})
		}
	}
}
