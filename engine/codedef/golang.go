package codedef

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// GoVersion is the version of ParseGo's definitions: bump it when ParseGo
// may return different definitions for the same source. It is part of a
// Go file's parser name in the mirror, so a bump re-chunks only Go files.
const GoVersion = "1"

// ParseGo finds the definitions of a Go source file with go/parser: its
// functions, methods (Label with the receiver, "func (s *Store) Get"),
// types, constants and variables, each with its doc comment. A grouped
// declaration of several names ("const ( A = 1; B = 2 )") is a definition
// with no Name whose children are its specs, so a large group splits
// between them. Definitions are in source order; Parent is -1 but for a
// group's members.
func ParseGo(src []byte) ([]Def, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse go: %w", err)
	}
	g := goDefs{fset: fset, src: src}
	for _, d := range f.Decls {
		switch x := d.(type) {
		case *ast.FuncDecl:
			g.add(x.Doc, x, -1, x.Name.Name, funcKind(x), g.funcLabel(x))
		case *ast.GenDecl:
			g.genDecl(x)
		}
	}
	return g.out, nil
}

// maxGroupNames is the number of names a group's label lists: "const
// (A, B, C, ...)".
const maxGroupNames = 3

// goDefs collects the definitions of one file.
type goDefs struct {
	fset *token.FileSet
	src  []byte
	out  []Def
}

// add appends the definition of node n (with its doc comment) and returns
// its index.
func (g *goDefs) add(doc *ast.CommentGroup, n ast.Node, parent int, name, kind, label string) int {
	start := n.Pos()
	if doc != nil && doc.Pos() < start {
		start = doc.Pos()
	}
	s, e := g.fset.Position(start), g.fset.Position(n.End())
	g.out = append(g.out, Def{
		Name: name, Kind: kind, Parent: parent, Label: label,
		StartByte: s.Offset, EndByte: e.Offset, StartLine: s.Line, EndLine: g.lastLine(e),
	})
	return len(g.out) - 1
}

// lastLine is the line of the byte before end (End is one past the node).
func (g *goDefs) lastLine(end token.Position) int {
	if end.Column == 1 && end.Line > 1 {
		return end.Line - 1
	}
	return end.Line
}

// genDecl adds a type, const or var declaration: one definition per
// name, under a nameless group definition when the declaration holds
// more than one name. Imports define nothing.
func (g *goDefs) genDecl(x *ast.GenDecl) {
	if x.Tok == token.IMPORT {
		return
	}
	kind := genKind(x.Tok)
	names := specNames(x)
	if len(names) == 0 {
		return
	}
	parent := -1
	if len(names) > 1 {
		label := x.Tok.String() + " (" + strings.Join(names[:min(len(names), maxGroupNames)], ", ")
		if len(names) > maxGroupNames {
			label += ", ..."
		}
		label += ")"
		parent = g.add(x.Doc, x, -1, "", kind, label)
	}
	if parent < 0 {
		g.add(x.Doc, x, -1, names[0], kind, x.Tok.String()+" "+names[0])
		return
	}
	for _, s := range x.Specs {
		for _, n := range specIdents(s) {
			g.add(specDoc(s), s, parent, n, kind, x.Tok.String()+" "+n)
		}
	}
}

func (g *goDefs) funcLabel(x *ast.FuncDecl) string {
	if x.Recv == nil || len(x.Recv.List) == 0 {
		return "func " + x.Name.Name
	}
	recv := string(g.src[g.fset.Position(x.Recv.Pos()).Offset:g.fset.Position(x.Recv.End()).Offset])
	return "func " + strings.Join(strings.Fields(recv), " ") + " " + x.Name.Name
}

func funcKind(x *ast.FuncDecl) string {
	if x.Recv != nil {
		return KindMethod
	}
	return KindFunction
}

func genKind(tok token.Token) string {
	switch tok {
	case token.TYPE:
		return KindType
	case token.CONST:
		return KindConstant
	}
	return KindVariable
}

// specNames lists the names a declaration defines, in order.
func specNames(x *ast.GenDecl) []string {
	var names []string
	for _, s := range x.Specs {
		names = append(names, specIdents(s)...)
	}
	return names
}

func specIdents(s ast.Spec) []string {
	switch sp := s.(type) {
	case *ast.TypeSpec:
		return []string{sp.Name.Name}
	case *ast.ValueSpec:
		names := make([]string, 0, len(sp.Names))
		for _, n := range sp.Names {
			if n.Name != "_" {
				names = append(names, n.Name)
			}
		}
		return names
	}
	return nil
}

func specDoc(s ast.Spec) *ast.CommentGroup {
	switch sp := s.(type) {
	case *ast.TypeSpec:
		return sp.Doc
	case *ast.ValueSpec:
		return sp.Doc
	}
	return nil
}
