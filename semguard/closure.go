package semguard

import (
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/zeebo/blake3"
)

// implicitMethods are called by the standard library on a value after a
// type assertion, not through the interface the value was converted to
// (fmt's String and Format, errors' Unwrap, encoding/json's MarshalJSON,
// io.Copy's WriteTo and ReadFrom, the decompressors' ReadByte, ...). A type
// a region reaches brings these methods of it along, and so does every
// conversion of a value to an interface (convert.go), which also reaches
// the methods of that interface: a call through an interface can land
// only on a method of a value once converted to it. Calls through an
// interface whose values are made outside the closure (the embedders,
// the analyzer) are not followed: mark the implementation, as the
// built-in embedder's Embed is marked.
var implicitMethods = map[string]bool{
	"String": true, "GoString": true, "Format": true, "Error": true, "Unwrap": true, "Is": true, "As": true,
	"MarshalJSON": true, "UnmarshalJSON": true, "MarshalText": true, "UnmarshalText": true, "AppendText": true,
	"MarshalBinary": true, "UnmarshalBinary": true, "AppendBinary": true, "GobEncode": true, "GobDecode": true,
	"Len": true, "Less": true, "Swap": true,
	"WriteTo": true, "ReadFrom": true, "ReadByte": true, "UnreadByte": true, "ReadRune": true, "UnreadRune": true,
	"WriteString": true, "WriteByte": true, "WriteRune": true, "ReadAt": true, "Seek": true, "Close": true, "Size": true,
}

// facts are what a unit contributes to a digest: its own digest (of its
// syntax tree, and of the files a go:embed directive on it names) and the
// units and dependency modules it refers to.
type facts struct {
	digest  string
	refs    []*unit
	modules []string // "module@version" of the dependencies it uses
}

// graph computes the facts of units on demand.
type graph struct {
	ix     *index
	opaque map[*unit]bool // referenced by name only: their value is not digested (the version, the generated query digest)
	facts  map[*unit]*facts
	varUse map[*unit][]*unit // package-level var → the init functions that use it
}

func newGraph(ix *index) *graph {
	g := &graph{ix: ix, opaque: map[*unit]bool{}, facts: map[*unit]*facts{}}
	g.varUse = map[*unit][]*unit{}
	for _, inits := range ix.inits {
		for _, in := range inits {
			for _, r := range g.of(in).refs {
				g.varUse[r] = append(g.varUse[r], in)
			}
		}
	}
	return g
}

func (g *graph) of(u *unit) *facts {
	if f := g.facts[u]; f != nil {
		return f
	}
	f := g.compute(u)
	g.facts[u] = f
	return f
}

func (g *graph) compute(u *unit) *facts {
	e := newEncoder(u.pkg.info)
	e.str(u.key)
	if g.opaque[u] {
		return &facts{digest: hex.EncodeToString(e.sum()[:12])}
	}
	refs := map[*unit]bool{}
	mods := map[string]bool{}
	switch n := u.node.(type) {
	case *ast.TypeSpec:
		e.str(strconv.FormatBool(n.Assign.IsValid()))
		if u.head {
			e.node(n.Name)
			e.node(n.TypeParams)
			if n.TypeParams != nil {
				g.collect(u, n.TypeParams, refs, mods)
			}
		} else {
			e.node(n)
			g.collect(u, n, refs, mods)
		}
		g.implicit(u, refs)
	case *ast.ValueSpec:
		e.node(n)
		g.collect(u, n, refs, mods)
		g.conversions(u, n, refs)
		g.embedded(u, n, e)
	default:
		e.node(n)
		g.collect(u, n, refs, mods)
		g.conversions(u, n, refs)
	}
	if _, ok := u.node.(*ast.Field); ok {
		if head := g.headOf(u); head != nil {
			refs[head] = true
		}
	}
	delete(refs, u)
	return &facts{digest: hex.EncodeToString(e.sum()[:12]), refs: sortedUnits(refs), modules: sortedKeys(mods)}
}

// headOf is the type unit a field unit belongs to.
func (g *graph) headOf(field *unit) *unit {
	i := strings.LastIndexByte(field.key, '.')
	return g.ix.byKey[field.key[:i]]
}

// collect records what the identifiers under n refer to: units of the
// module, or the modules of dependencies.
func (g *graph) collect(u *unit, n ast.Node, refs map[*unit]bool, mods map[string]bool) {
	info := u.pkg.info
	ast.Inspect(n, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		obj := info.Uses[id]
		if obj == nil || obj.Pkg() == nil {
			return true // a definition, or a predeclared name
		}
		if _, ok := obj.(*types.PkgName); ok {
			return true
		}
		if g.ix.m.pkgs[obj.Pkg().Path()] != nil {
			if r := g.ix.unitAt(obj.Pos()); r != nil {
				refs[r] = true
			}
			return true
		}
		if mod := g.ix.m.modOf[obj.Pkg().Path()]; mod != "" && mod != "std" {
			mods[mod] = true
		}
		return true
	})
}

// implicit adds the methods of the named type u declares that the
// standard library calls on its own (implicitMethods).
func (g *graph) implicit(u *unit, refs map[*unit]bool) {
	for _, obj := range u.objs {
		tn, ok := obj.(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		for i := range named.NumMethods() {
			m := named.Method(i)
			if implicitMethods[m.Name()] {
				if r := g.ix.unitAt(m.Pos()); r != nil {
					refs[r] = true
				}
			}
		}
	}
}

// embedded adds the content of the files a //go:embed directive of the var
// spec names.
func (g *graph) embedded(u *unit, vs *ast.ValueSpec, e *encoder) {
	for _, pattern := range embedPatterns(u.gen, vs) {
		for _, name := range matchEmbeds(u.pkg, pattern) {
			b, err := os.ReadFile(name)
			if err != nil {
				e.str("unreadable " + err.Error())
				continue
			}
			sum := blake3.Sum256(b)
			e.str(g.ix.m.relPath(name))
			e.str(string(sum[:]))
		}
	}
}

// embedPatterns returns the patterns of the //go:embed lines above vs (or
// above its declaration when vs is its only spec).
func embedPatterns(gen *ast.GenDecl, vs *ast.ValueSpec) []string {
	var out []string
	for _, cg := range []*ast.CommentGroup{vs.Doc, gen.Doc} {
		if cg == nil || (cg == gen.Doc && len(gen.Specs) != 1) {
			continue
		}
		for _, c := range cg.List {
			if rest, ok := strings.CutPrefix(c.Text, "//go:embed "); ok {
				out = append(out, strings.Fields(rest)...)
			}
		}
	}
	return out
}

// matchEmbeds returns the package's embedded files that pattern selects
// (the go command has resolved and checked the patterns: a pattern names
// files or directories under the package directory).
func matchEmbeds(p *pkg, pattern string) []string {
	pattern = strings.TrimPrefix(strings.Trim(pattern, "\"`"), "all:")
	var out []string
	for _, name := range p.embeds {
		rel, err := filepath.Rel(p.dir, name)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		if ok, _ := filepath.Match(pattern, rel); ok || strings.HasPrefix(rel, strings.TrimSuffix(pattern, "/")+"/") {
			out = append(out, name)
			continue
		}
		for dir := filepath.ToSlash(filepath.Dir(rel)); dir != "."; dir = filepath.ToSlash(filepath.Dir(dir)) {
			if ok, _ := filepath.Match(pattern, dir); ok {
				out = append(out, name)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// closure is everything a set of roots reaches: each unit with the unit
// it was first reached from (nil for a root), and the modules used.
type closure struct {
	from    map[*unit]*unit
	modules map[string]bool
}

func (g *graph) reach(roots []*unit) *closure {
	c := &closure{from: map[*unit]*unit{}, modules: map[string]bool{}}
	queue := make([]*unit, 0, len(roots))
	for _, r := range roots {
		if _, ok := c.from[r]; !ok {
			c.from[r] = nil
			queue = append(queue, r)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		f := g.of(u)
		for _, m := range f.modules {
			c.modules[m] = true
		}
		next := f.refs
		if len(g.varUse[u]) > 0 {
			next = append(append([]*unit(nil), next...), g.varUse[u]...)
		}
		for _, r := range next {
			if _, ok := c.from[r]; !ok {
				c.from[r] = u
				queue = append(queue, r)
			}
		}
	}
	return c
}

// path is how the closure reached u from a root: "root → a → u".
func (c *closure) path(u *unit) string {
	var keys []string
	for ; u != nil; u = c.from[u] {
		keys = append(keys, u.key)
	}
	for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
		keys[i], keys[j] = keys[j], keys[i]
	}
	return strings.Join(keys, " → ")
}

// digest of the closure: every unit's key and digest, and every module,
// in sorted order.
func (g *graph) digest(c *closure) (string, map[string]string) {
	symbols := make(map[string]string, len(c.from))
	for u := range c.from {
		symbols[u.key] = g.of(u).digest
	}
	h := blake3.New()
	for _, k := range sortedKeys(symbols) {
		fmt.Fprintf(h, "%d:%s=%s\n", len(k), k, symbols[k])
	}
	for _, m := range sortedKeys(c.modules) {
		fmt.Fprintf(h, "module %s\n", m)
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), symbols
}

func sortedUnits(set map[*unit]bool) []*unit {
	out := make([]*unit, 0, len(set))
	for u := range set {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
