package semguard

import (
	"go/ast"
	"go/types"
)

// conversions adds to refs every method that a conversion under n to an
// interface can reach: where a value of a type (the module's or not) is
// assigned, passed, returned, sent, put in a composite literal or
// converted to an interface type, each method of the interface is looked
// up on the value's type, and the module's method found is reached, with
// the methods the standard library asserts for on such a value
// (implicitMethods: io.Copy's WriteTo, fmt's String, ...). A call
// through the interface later, anywhere, can only land on those.
func (g *graph) conversions(u *unit, n ast.Node, refs map[*unit]bool) {
	info := u.pkg.info
	var results []*types.Tuple // of the enclosing functions, innermost last
	conv := func(to types.Type, e ast.Expr) {
		if e == nil || to == nil {
			return
		}
		iface, ok := to.Underlying().(*types.Interface)
		if !ok {
			return
		}
		tv, ok := info.Types[e]
		if !ok || tv.Type == nil || types.IsInterface(tv.Type) {
			return
		}
		g.methodsFor(tv.Type, iface, u.pkg.types, refs)
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			results = append(results, sigResults(info, n.Name))
			if n.Body != nil {
				ast.Inspect(n.Body, visit)
			}
			results = results[:len(results)-1]
			return false
		case *ast.FuncLit:
			if sig, ok := info.Types[n].Type.(*types.Signature); ok {
				results = append(results, sig.Results())
				ast.Inspect(n.Body, visit)
				results = results[:len(results)-1]
			}
			return false
		case *ast.CallExpr:
			g.callConversions(info, n, conv)
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					conv(info.TypeOf(l), n.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			if n.Type != nil {
				for _, v := range n.Values {
					conv(info.TypeOf(n.Type), v)
				}
			}
		case *ast.ReturnStmt:
			if len(results) > 0 && results[len(results)-1] != nil && results[len(results)-1].Len() == len(n.Results) {
				for i, r := range n.Results {
					conv(results[len(results)-1].At(i).Type(), r)
				}
			}
		case *ast.SendStmt:
			if ch, ok := info.TypeOf(n.Chan).Underlying().(*types.Chan); ok {
				conv(ch.Elem(), n.Value)
			}
		case *ast.CompositeLit:
			litConversions(info, n, conv)
		}
		return true
	}
	ast.Inspect(n, visit)
}

func sigResults(info *types.Info, name *ast.Ident) *types.Tuple {
	if fn, ok := info.Defs[name].(*types.Func); ok {
		return fn.Type().(*types.Signature).Results()
	}
	return nil
}

// callConversions handles a call's arguments (variadic ones included) and
// a conversion T(x) to an interface type.
func (g *graph) callConversions(info *types.Info, call *ast.CallExpr, conv func(types.Type, ast.Expr)) {
	ft, ok := info.Types[call.Fun]
	if !ok {
		return
	}
	if ft.IsType() {
		if len(call.Args) == 1 {
			conv(ft.Type, call.Args[0])
		}
		return
	}
	sig, ok := ft.Type.Underlying().(*types.Signature)
	if !ok {
		return
	}
	params := sig.Params()
	for i, a := range call.Args {
		switch {
		case sig.Variadic() && i >= params.Len()-1:
			last := params.At(params.Len() - 1).Type()
			if call.Ellipsis.IsValid() {
				conv(last, a)
			} else if s, ok := last.(*types.Slice); ok {
				conv(s.Elem(), a)
			}
		case i < params.Len():
			conv(params.At(i).Type(), a)
		}
	}
}

// litConversions handles the elements of a composite literal.
func litConversions(info *types.Info, lit *ast.CompositeLit, conv func(types.Type, ast.Expr)) {
	t := info.TypeOf(lit)
	if t == nil {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	for i, el := range lit.Elts {
		kv, isKV := el.(*ast.KeyValueExpr)
		switch u := t.Underlying().(type) {
		case *types.Struct:
			if isKV {
				if id, ok := kv.Key.(*ast.Ident); ok {
					if f, ok := info.Uses[id].(*types.Var); ok {
						conv(f.Type(), kv.Value)
					}
				}
			} else if i < u.NumFields() {
				conv(u.Field(i).Type(), el)
			}
		case *types.Slice:
			conv(u.Elem(), valueOf(el))
		case *types.Array:
			conv(u.Elem(), valueOf(el))
		case *types.Map:
			if isKV {
				conv(u.Key(), kv.Key)
				conv(u.Elem(), kv.Value)
			}
		}
	}
}

func valueOf(el ast.Expr) ast.Expr {
	if kv, ok := el.(*ast.KeyValueExpr); ok {
		return kv.Value
	}
	return el
}

// methodsFor reaches the module's methods of t that implement iface, and
// those of implicitMethods.
func (g *graph) methodsFor(t types.Type, iface *types.Interface, pkg *types.Package, refs map[*unit]bool) {
	add := func(name string) {
		obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
		if fn, ok := obj.(*types.Func); ok && fn.Pkg() != nil && g.ix.m.pkgs[fn.Pkg().Path()] != nil {
			if r := g.ix.unitAt(fn.Pos()); r != nil {
				refs[r] = true
			}
		}
	}
	for i := range iface.NumMethods() {
		add(iface.Method(i).Name())
	}
	for name := range implicitMethods {
		add(name)
	}
}
