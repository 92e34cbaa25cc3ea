package semguard

import (
	"encoding/binary"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"hash"
	"reflect"
	"strconv"

	"github.com/zeebo/blake3"
)

var (
	posType     = reflect.TypeFor[token.Pos]()
	tokenType   = reflect.TypeFor[token.Token]()
	commentType = reflect.TypeFor[*ast.CommentGroup]()
	// objectType is the type of the parser's deprecated resolution link
	// Ident.Obj: not part of a tree's meaning (nor computed: the files are
	// parsed with SkipObjectResolution). A declaration holds no File.Scope.
	objectType = objField()
)

func objField() reflect.Type {
	f, _ := reflect.TypeFor[ast.Ident]().FieldByName("Obj")
	return f.Type
}

// encoder writes a canonical encoding of a syntax tree: node kinds,
// identifiers, operators and literal values, in tree order, with a count
// before every list. Positions and comments are not part of it, and
// parentheses are dropped (the tree already says how operands group), so
// neither a comment nor gofmt changes it. Literals are encoded by value:
// 0x10 and 16, "a" and `a` are the same.
type encoder struct {
	h    hash.Hash
	info *types.Info
	buf  []byte
}

func newEncoder(info *types.Info) *encoder {
	return &encoder{h: blake3.New(), info: info}
}

func (e *encoder) str(s string) {
	e.buf = binary.AppendUvarint(e.buf[:0], uint64(len(s)))
	e.buf = append(e.buf, s...)
	_, _ = e.h.Write(e.buf)
}

func (e *encoder) num(n int) {
	e.buf = binary.AppendUvarint(e.buf[:0], uint64(n))
	_, _ = e.h.Write(e.buf)
}

func (e *encoder) sum() []byte { return e.h.Sum(nil) }

func (e *encoder) node(n ast.Node) {
	switch n := n.(type) {
	case nil:
		e.str("nil")
		return
	case *ast.ParenExpr:
		e.node(n.X)
		return
	case *ast.Ident:
		e.ident(n)
		return
	case *ast.BasicLit:
		e.str("lit")
		e.str(literal(n))
		return
	case *ast.CommentGroup, *ast.Comment:
		return
	}
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		e.str("nil")
		return
	}
	e.str(v.Elem().Type().Name())
	e.fields(v.Elem())
}

// ident encodes a name; a package name as the path it imports, so that an
// import alias is not a change.
func (e *encoder) ident(id *ast.Ident) {
	if id == nil {
		e.str("nil")
		return
	}
	if pn, ok := e.info.Uses[id].(*types.PkgName); ok {
		e.str("pkg")
		e.str(pn.Imported().Path())
		return
	}
	e.str("id")
	e.str(id.Name)
}

func (e *encoder) value(v reflect.Value) {
	if n, ok := asNode(v); ok {
		e.node(n)
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			e.str("nil")
			return
		}
		e.value(v.Elem())
	case reflect.Struct:
		e.fields(v)
	case reflect.Slice:
		e.num(v.Len())
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.String:
		e.str(v.String())
	case reflect.Bool:
		e.str(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type() == tokenType {
			e.str(token.Token(v.Int()).String())
			return
		}
		e.num(int(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.num(int(v.Uint()))
	}
}

func (e *encoder) fields(v reflect.Value) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		switch f.Type {
		case posType, commentType, objectType:
			continue
		}
		e.value(v.Field(i))
	}
}

// asNode returns the field's value as a node when it holds one (a pointer
// to a node type, or an interface holding one).
func asNode(v reflect.Value) (ast.Node, bool) {
	if v.Kind() != reflect.Pointer && v.Kind() != reflect.Interface {
		return nil, false
	}
	if v.IsNil() {
		return nil, v.Type().Implements(reflect.TypeFor[ast.Node]())
	}
	n, ok := v.Interface().(ast.Node)
	return n, ok
}

// literal is a basic literal's value in canonical form.
func literal(l *ast.BasicLit) string {
	switch l.Kind {
	case token.STRING:
		if s, err := strconv.Unquote(l.Value); err == nil {
			return "s" + s
		}
	case token.INT, token.FLOAT, token.IMAG, token.CHAR:
		if c := constant.MakeFromLiteral(l.Value, l.Kind, 0); c.Kind() != constant.Unknown {
			return l.Kind.String() + c.ExactString()
		}
	}
	return l.Kind.String() + l.Value
}
