package syntax

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// maxLabel caps a Label, in bytes.
const maxLabel = 120

// defs turns the module's records into definitions: in source order, with
// lines and parents; a function whose parent is a class or an impl block
// is a method.
func defs(src []byte, recs []record, kinds []string) ([]Def, error) {
	recs = dedupe(recs)
	lines := lineStarts(src)
	out := make([]Def, 0, len(recs))
	for _, r := range recs {
		if int(r.rule) >= len(kinds) || r.nameEnd < r.nameStart || int(r.end) > len(src) || r.extStart > r.start {
			return nil, fmt.Errorf("tree-sitter module: bad record %+v", r)
		}
		r.end = trimEnd(src, r.extStart, r.end)
		kind := kinds[r.rule]
		d := Def{
			Name: string(src[r.nameStart:r.nameEnd]), Kind: kind,
			StartByte: int(r.extStart), EndByte: int(r.end),
			StartLine: lineOf(lines, int(r.extStart)), EndLine: lineOf(lines, max(int(r.end)-1, int(r.extStart))),
			Label: label(src, r, kind),
		}
		out = append(out, d)
	}
	setParents(out, recs)
	for i, d := range out {
		if d.Kind == KindFunction && d.Parent >= 0 && (out[d.Parent].Kind == KindClass || out[d.Parent].Kind == KindImpl) {
			out[i].Kind = KindMethod
		}
	}
	return out, nil
}

// dedupe keeps one record per definition node, the one of the lowest
// rule index, and sorts them by start, an enclosing node before the nodes
// it holds.
func dedupe(recs []record) []record {
	sort.SliceStable(recs, func(i, j int) bool {
		a, b := recs[i], recs[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end
		}
		return a.rule < b.rule
	})
	return slices.CompactFunc(recs, func(a, b record) bool { return a.start == b.start && a.end == b.end })
}

// setParents gives each definition the nearest earlier one whose node holds
// its node.
func setParents(ds []Def, recs []record) {
	var stack []int
	for i := range ds {
		for len(stack) > 0 && recs[stack[len(stack)-1]].end < recs[i].end {
			stack = stack[:len(stack)-1]
		}
		ds[i].Parent = -1
		if len(stack) > 0 {
			ds[i].Parent = stack[len(stack)-1]
		}
		stack = append(stack, i)
	}
}

func knownKind(k string) bool {
	switch k {
	case KindClass, KindFunction, KindMethod, KindType, KindConstant, KindVariable, KindImpl, KindNamespace, KindMacro:
		return true
	}
	return false
}

// label is the definition's header from its first byte to the end of its
// name ("class TypeAdapter", "pub fn parse"), or for an impl block to the
// end of its first line before "{" ("impl FromRequest for Foo"), with runs
// of white space made one space; the bare name when the name lies outside
// the definition's node.
func label(src []byte, r record, kind string) string {
	if r.nameStart < r.start || r.nameEnd > r.end {
		return string(src[r.nameStart:r.nameEnd])
	}
	end := r.nameEnd
	if kind == KindImpl {
		end = r.end
		if i := bytes.IndexAny(src[r.start:r.end], "{\n"); i >= 0 {
			end = r.start + uint32(i)
		}
	}
	s := stripAnnotations(strings.Join(strings.Fields(string(src[r.start:end])), " "))
	if len(s) > maxLabel {
		s = s[:maxLabel]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// stripAnnotations drops the annotations and attributes that lead a
// header ("@Override public V get" is "public V get", "[Serializable]
// public class C" and "#[Attribute] class R" lose theirs): a label names
// the definition, and Java's, Kotlin's, C#'s and PHP's nodes start with
// them. A header that is nothing else stays as it is.
func stripAnnotations(s string) string {
	rest := s
	for {
		var n int
		switch {
		case strings.HasPrefix(rest, "@"):
			n = 1 + strings.IndexFunc(rest[1:], func(r rune) bool { return !isNameRune(r) })
			if n == 0 { // the name runs to the end
				return s
			}
			if rest[1:n] == "interface" { // Java's annotation type: "@interface Marker"
				return rest
			}
			if rest[n] == '(' {
				n += balanced(rest[n:], '(', ')')
			}
		case strings.HasPrefix(rest, "["):
			n = balanced(rest, '[', ']')
		case strings.HasPrefix(rest, "#["):
			n = 1 + balanced(rest[1:], '[', ']')
		default:
			if rest == "" {
				return s
			}
			return rest
		}
		if n <= 0 || n > len(rest) {
			return s
		}
		rest = strings.TrimLeft(rest[n:], " ")
	}
}

func isNameRune(r rune) bool {
	return r == '_' || r == '.' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80
}

// balanced returns the length of the bracketed group s starts with, 0 when
// it does not close.
func balanced(s string, open, closing byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case closing:
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// trimEnd moves end back over trailing white space, which some grammars
// (Scala's indented bodies) count into a definition up to the next one.
func trimEnd(src []byte, start, end uint32) uint32 {
	for end > start && strings.IndexByte(" \t\r\n", src[end-1]) >= 0 {
		end--
	}
	return end
}

// lineStarts returns the byte offset of every line's start.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf returns the 1-based line holding byte off.
func lineOf(starts []int, off int) int {
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
}
