package semguard

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"sort"
	"strconv"
	"strings"
)

// A unit is the smallest thing a digest names: a function or method, a
// const declaration (the whole group: iota ties its specs together), one
// var or type spec, or — for a struct type without tags — the type's name
// and each field on its own, so that code reading one field of a
// configuration struct does not depend on its other fields. A struct with
// tags is one unit: it is likely serialized by reflection, field by field.
type unit struct {
	key  string // e.g. "engine/chunk.Split", "engine.(*builder).build", "engine.Settings.K1"
	pkg  *pkg
	node ast.Node // *ast.FuncDecl, *ast.GenDecl (const), *ast.ValueSpec, *ast.TypeSpec, *ast.Field
	gen  *ast.GenDecl
	file string // relative to the module root
	head bool   // the name part of a split struct type: its fields are units of their own

	objs []types.Object // the package-level objects it declares
}

// index maps positions to units, file by file.
type index struct {
	m      *module
	byFile map[*token.File][]*unit // sorted by start
	byKey  map[string]*unit
	inits  map[*pkg][]*unit
}

func (m *module) buildIndex() *index {
	ix := &index{m: m, byFile: map[*token.File][]*unit{}, byKey: map[string]*unit{}, inits: map[*pkg][]*unit{}}
	for _, p := range m.order {
		for i, f := range p.files {
			tf := m.fset.File(f.Pos())
			for _, d := range f.Decls {
				ix.addDecl(p, p.names[i], tf, d)
			}
			us := ix.byFile[tf]
			sort.SliceStable(us, func(a, b int) bool { return us[a].node.Pos() < us[b].node.Pos() })
		}
	}
	return ix
}

func (ix *index) add(u *unit, tf *token.File) {
	if ix.byKey[u.key] != nil { // init functions, blank identifiers: numbered in file order
		base := u.key + "@" + path.Base(u.file) + "#"
		n := 2
		for ix.byKey[base+strconv.Itoa(n)] != nil {
			n++
		}
		u.key = base + strconv.Itoa(n)
	}
	ix.byKey[u.key] = u
	ix.byFile[tf] = append(ix.byFile[tf], u)
}

func (ix *index) addDecl(p *pkg, file string, tf *token.File, d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		u := &unit{key: p.display() + "." + funcName(d), pkg: p, node: d, file: file}
		if obj := p.info.Defs[d.Name]; obj != nil {
			u.objs = []types.Object{obj}
		}
		ix.add(u, tf)
		if d.Recv == nil && d.Name.Name == "init" {
			ix.inits[p] = append(ix.inits[p], u)
		}
	case *ast.GenDecl:
		switch d.Tok {
		case token.CONST:
			u := &unit{pkg: p, node: d, gen: d, file: file}
			var names []string
			for _, s := range d.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					names, u.objs = append(names, n.Name), appendObj(u.objs, p.info.Defs[n])
				}
			}
			u.key = p.display() + "." + strings.Join(names, ",")
			ix.add(u, tf)
		case token.VAR:
			for _, s := range d.Specs {
				vs := s.(*ast.ValueSpec)
				u := &unit{pkg: p, node: vs, gen: d, file: file}
				var names []string
				for _, n := range vs.Names {
					names, u.objs = append(names, n.Name), appendObj(u.objs, p.info.Defs[n])
				}
				u.key = p.display() + "." + strings.Join(names, ",")
				ix.add(u, tf)
			}
		case token.TYPE:
			for _, s := range d.Specs {
				ix.addType(p, file, tf, d, s.(*ast.TypeSpec))
			}
		}
	}
}

func (ix *index) addType(p *pkg, file string, tf *token.File, d *ast.GenDecl, ts *ast.TypeSpec) {
	key := p.display() + "." + ts.Name.Name
	u := &unit{key: key, pkg: p, node: ts, gen: d, file: file, objs: appendObj(nil, p.info.Defs[ts.Name])}
	st, ok := ts.Type.(*ast.StructType)
	if !ok || ts.Assign.IsValid() || hasTags(st) {
		ix.add(u, tf)
		return
	}
	u.head = true
	ix.add(u, tf)
	for _, fld := range st.Fields.List {
		var names []string
		var objs []types.Object
		for _, n := range fld.Names {
			names, objs = append(names, n.Name), appendObj(objs, p.info.Defs[n])
		}
		if len(names) == 0 { // embedded
			names = []string{embeddedName(fld.Type)}
		}
		ix.add(&unit{key: key + "." + strings.Join(names, ","), pkg: p, node: fld, gen: d, file: file, objs: objs}, tf)
	}
}

func hasTags(st *ast.StructType) bool {
	for _, f := range st.Fields.List {
		if f.Tag != nil {
			return true
		}
	}
	return false
}

func embeddedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return embeddedName(e.X)
	case *ast.IndexListExpr:
		return embeddedName(e.X)
	}
	return "?"
}

func appendObj(objs []types.Object, o types.Object) []types.Object {
	if o == nil {
		return objs
	}
	return append(objs, o)
}

// funcName is "F", "T.M" or "(*T).M".
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	name := embeddedName(t)
	if star {
		return "(*" + name + ")." + d.Name.Name
	}
	return name + "." + d.Name.Name
}

// display is the package path relative to the module ("engine/chunk"), or
// the package name for the module's root package.
func (p *pkg) display() string {
	if p.rel == "" {
		return p.types.Name()
	}
	return p.rel
}

// unitAt returns the innermost unit whose source holds pos.
func (ix *index) unitAt(pos token.Pos) *unit {
	tf := ix.m.fset.File(pos)
	if tf == nil {
		return nil
	}
	us := ix.byFile[tf]
	i := sort.Search(len(us), func(i int) bool { return us[i].node.Pos() > pos })
	for j := i - 1; j >= 0; j-- {
		if us[j].node.Pos() <= pos && pos < us[j].node.End() {
			return us[j]
		}
	}
	return nil
}
