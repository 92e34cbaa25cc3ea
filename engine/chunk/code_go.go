package chunk

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// langBlocks cuts code in language lang into blocks labelled with the
// declaration they hold: Go through go/parser (falling back to the
// heuristic when the file does not parse), other known languages by their
// definition patterns, anything else by codeBlocks.
func langBlocks(l *lines, lang string) []block {
	if lang == "go" {
		if b, ok := goBlocks(l); ok {
			return b
		}
	}
	if rules, ok := langRules()[lang]; ok {
		return heuristicBlocks(l, rules)
	}
	return codeBlocks(l)
}

// goBlocks makes one block per top-level declaration (with its doc
// comment) and cuts the lines between declarations as codeBlocks does.
func goBlocks(l *lines) ([]block, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", l.text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil || f == nil {
		return nil, false
	}
	var out []block
	next := 0 // first line not yet in a block
	gap := func(end int) {
		for _, b := range codeBlocks(l.sub(next, end)) {
			out = append(out, b.shift(next))
		}
	}
	for _, d := range f.Decls {
		start, end := declLines(fset, d)
		if start < next || end >= l.count() || start > end {
			return nil, false
		}
		gap(start)
		s, e := l.trim(start, end)
		if s <= e {
			sig := goLabel(l.text, fset, d)
			out = append(out, block{start: s, end: e, sig: sig, decl: !strings.HasPrefix(sig, "import")})
		}
		next = end + 1
	}
	gap(l.count())
	return out, true
}

// declLines returns the 0-based first and last line of a declaration,
// its doc comment included.
func declLines(fset *token.FileSet, d ast.Decl) (int, int) {
	pos := d.Pos()
	switch x := d.(type) {
	case *ast.FuncDecl:
		if x.Doc != nil {
			pos = x.Doc.Pos()
		}
	case *ast.GenDecl:
		if x.Doc != nil {
			pos = x.Doc.Pos()
		}
	}
	return fset.Position(pos).Line - 1, fset.Position(d.End()).Line - 1
}

// goLabel names a declaration: "func (s *Store) Get", "type Store",
// "var ErrX", "const (A, B)", "import".
func goLabel(src string, fset *token.FileSet, d ast.Decl) string {
	switch x := d.(type) {
	case *ast.FuncDecl:
		if x.Recv != nil && len(x.Recv.List) > 0 {
			recv := src[fset.Position(x.Recv.Pos()).Offset:fset.Position(x.Recv.End()).Offset]
			return "func " + strings.Join(strings.Fields(recv), " ") + " " + x.Name.Name
		}
		return "func " + x.Name.Name
	case *ast.GenDecl:
		var names []string
		for _, s := range x.Specs {
			switch sp := s.(type) {
			case *ast.TypeSpec:
				names = append(names, sp.Name.Name)
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					names = append(names, n.Name)
				}
			}
		}
		label := x.Tok.String()
		switch {
		case len(names) == 1:
			label += " " + names[0]
		case len(names) > 1:
			label += " (" + strings.Join(names, ", ") + ")"
		}
		return cleanSignature(label)
	}
	return ""
}
