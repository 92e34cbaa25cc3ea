package semguard

import (
	"fmt"
	"go/constant"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
)

// State is what the guard computes from the source.
type State struct {
	Version int               // the value of Config.VersionConst
	Regions []RegionState     // sorted by name
	Symbols map[string]string // every unit a region reaches → its digest
	// ReachedBy lists, for each symbol, the regions that reach it.
	ReachedBy map[string][]string
	// Query is the query-semantics digest of the source; Compiled the
	// value of Config.QueryConst in the source ("" when missing).
	Query, Compiled string
	// QuerySymbols are the digests the query digest covers.
	QuerySymbols map[string]string
}

// RegionState is one region's digest.
type RegionState struct {
	Name    string
	File    string // where its markers are
	Digest  string
	Modules []string // the dependency modules it reaches, "path@version"
	Symbols int
}

// Compute loads the module at root and computes its state under cfg: it
// fails on a marker error, on a region that reaches a query-time symbol, or
// on a symbol of cfg that does not exist.
func Compute(root string, cfg Config) (*State, error) {
	root, err := filepath.Abs(root)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil, err
	}
	m, err := load(root, cfg.packages())
	if err != nil {
		return nil, err
	}
	regions, err := m.findRegions()
	if err != nil {
		return nil, err
	}
	ix := m.buildIndex()
	g := newGraph(ix)
	st := &State{Symbols: map[string]string{}, ReachedBy: map[string][]string{}}
	version, compiled, err := constants(ix, g, cfg)
	if err != nil {
		return nil, err
	}
	st.Version, st.Compiled = version, compiled
	reports, err := resolveAll(ix, cfg.Reports)
	if err != nil {
		return nil, err
	}
	for _, u := range reports {
		g.opaque[u] = true
	}
	queryTime, err := resolveAll(ix, cfg.QueryTime)
	if err != nil {
		return nil, err
	}
	if err := st.regions(ix, g, regions, queryTime); err != nil {
		return nil, err
	}
	roots, err := resolveAll(ix, cfg.QueryRoots)
	if err != nil {
		return nil, err
	}
	st.Query, st.QuerySymbols = g.digest(g.reach(append(roots, queryTime...)))
	return st, nil
}

// constants reads the version and the compiled query digest, and makes
// both opaque: a region refers to the version, and the query path to the
// digest, without their values being part of a digest.
func constants(ix *index, g *graph, cfg Config) (int, string, error) {
	vu, vobj, err := resolve(ix, cfg.VersionConst)
	if err != nil {
		return 0, "", fmt.Errorf("semguard config: version: %w", err)
	}
	g.opaque[vu] = true
	c, ok := vobj.(*types.Const)
	v, exact := constant.Int64Val(constant.ToInt(constantOf(c, ok)))
	if !ok || !exact || v < 1 {
		return 0, "", fmt.Errorf("semguard config: %s must be a positive integer constant", cfg.VersionConst)
	}
	qu, qobj, err := resolve(ix, cfg.QueryConst)
	if err != nil {
		return int(v), "", nil // not generated yet: Check says to run the update
	}
	g.opaque[qu] = true
	compiled := ""
	if qc, ok := qobj.(*types.Const); ok && qc.Val().Kind() == constant.String {
		compiled = constant.StringVal(qc.Val())
	}
	return int(v), compiled, nil
}

func constantOf(c *types.Const, ok bool) constant.Value {
	if !ok {
		return constant.MakeUnknown()
	}
	return c.Val()
}

// regions digests each region and checks that none reaches a query-time
// symbol.
func (st *State) regions(ix *index, g *graph, regions []*region, queryTime []*unit) error {
	var errs []error
	for _, r := range regions {
		roots := regionUnits(ix, r)
		c := g.reach(roots)
		for _, q := range queryTime {
			if _, ok := c.from[q]; ok {
				errs = append(errs, fmt.Errorf("region %q (%s) reaches the query-time symbol %s: %s", r.name, r.pos, q.key, c.path(q)))
			}
		}
		digest, symbols := g.digest(c)
		for k, d := range symbols {
			st.Symbols[k] = d
			st.ReachedBy[k] = append(st.ReachedBy[k], r.name)
		}
		file, _, _ := strings.Cut(r.pos, ":")
		st.Regions = append(st.Regions, RegionState{Name: r.name, File: file, Digest: digest, Modules: sortedKeys(c.modules), Symbols: len(symbols)})
	}
	if len(errs) > 0 {
		return fmt.Errorf("semguard: query-time code must stay outside regions (move the use out of the region, or take the symbol off the query-time list in semguard/config.go if it does shape what is stored):\n  %w", joinIndented(errs))
	}
	for _, rs := range st.ReachedBy {
		sort.Strings(rs)
	}
	return nil
}

// regionUnits returns the units of a region's declarations.
func regionUnits(ix *index, r *region) []*unit {
	var out []*unit
	for _, d := range r.decls {
		tf := ix.m.fset.File(d.Pos())
		for _, u := range ix.byFile[tf] {
			if u.node.Pos() >= d.Pos() && u.node.End() <= d.End() {
				out = append(out, u)
			}
		}
	}
	return out
}

func resolveAll(ix *index, names []string) ([]*unit, error) {
	var out []*unit
	var errs []error
	for _, n := range names {
		u, _, err := resolve(ix, n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, u)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("semguard config (semguard/config.go):\n  %w", joinIndented(errs))
	}
	return out, nil
}

// resolve finds the unit of a symbol name: a unit key, "pkg.Name" for any
// package-level name (one of a const group, say) or "pkg.T.F" for a field
// of a struct without tags (one of "F, G int", say).
func resolve(ix *index, name string) (*unit, types.Object, error) {
	if u := ix.byKey[name]; u != nil {
		var obj types.Object
		if len(u.objs) > 0 {
			obj = u.objs[0]
		}
		return u, obj, nil
	}
	slash := strings.LastIndexByte(name, '/') + 1
	pkgName, rest, _ := strings.Cut(name[slash:], ".")
	pkgName = name[:slash] + pkgName
	for _, p := range ix.m.order {
		if p.display() != pkgName {
			continue
		}
		ident, field, isField := strings.Cut(rest, ".")
		obj := p.types.Scope().Lookup(ident)
		if obj == nil {
			break
		}
		if isField {
			if st, ok := obj.Type().Underlying().(*types.Struct); ok {
				for i := range st.NumFields() {
					if f := st.Field(i); f.Name() == field {
						obj = f
					}
				}
			}
			if obj.Name() != field {
				break
			}
		}
		if u := ix.unitAt(obj.Pos()); u != nil {
			return u, obj, nil
		}
	}
	return nil, nil, fmt.Errorf("symbol %s not found (renamed or removed? name it anew in semguard/config.go)", name)
}

// packages are the packages cfg names (relative to the module).
func (cfg Config) packages() []string {
	var out []string
	names := append([]string{cfg.VersionConst, cfg.QueryConst}, cfg.Reports...)
	for _, name := range append(append(names, cfg.QueryTime...), cfg.QueryRoots...) {
		slash := strings.LastIndexByte(name, '/') + 1
		if dot := strings.IndexByte(name[slash:], '.'); dot >= 0 {
			out = append(out, name[:slash+dot])
		}
	}
	return out
}
