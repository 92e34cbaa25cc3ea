package semguard

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"sort"
	"strings"
)

// The marker syntax: a line comment of its own, outside any declaration.
const (
	markerPrefix = "//semguard:"
	beginMarker  = markerPrefix + "begin"
	endMarker    = markerPrefix + "end"
)

var regionName = regexp.MustCompile(`^[a-z0-9][a-z0-9._/-]*$`)

// region is the code between a begin and an end marker: whole top-level
// declarations of one file.
type region struct {
	name  string
	pos   string // file:line of the begin marker
	pkg   *pkg
	decls []ast.Decl
}

// marker is one parsed //semguard: comment.
type marker struct {
	begin bool
	name  string
	pos   token.Pos
	where string // file:line
}

// findRegions returns the regions of every file of the module, or every
// marker error found (each with its file:line).
func (m *module) findRegions() ([]*region, error) {
	var regions []*region
	var errs []error
	seen := map[string]*region{}
	for _, p := range m.order {
		for i, f := range p.files {
			rs, fileErrs := m.fileRegions(p, f, p.names[i])
			errs = append(errs, fileErrs...)
			for _, r := range rs {
				if prev := seen[r.name]; prev != nil {
					errs = append(errs, fmt.Errorf("%s: region %q duplicated: it is already opened at %s (a region name is used once)", r.pos, r.name, prev.pos))
					continue
				}
				seen[r.name] = r
				regions = append(regions, r)
			}
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("semguard markers:\n  %w", joinIndented(errs))
	}
	sort.Slice(regions, func(i, j int) bool { return regions[i].name < regions[j].name })
	return regions, nil
}

// fileRegions pairs the markers of one file and collects the declarations
// between them.
func (m *module) fileRegions(p *pkg, f *ast.File, name string) ([]*region, []error) {
	markers, errs := m.fileMarkers(f)
	var out []*region
	var open *marker
	var cur *region
	for i := range markers {
		mk := &markers[i]
		switch {
		case mk.begin && open != nil:
			errs = append(errs, fmt.Errorf("%s: begin %q inside region %q opened at %s: regions do not nest; end %q first", mk.where, mk.name, open.name, open.where, open.name))
		case mk.begin:
			open, cur = mk, &region{name: mk.name, pos: mk.where, pkg: p}
		case open == nil:
			errs = append(errs, fmt.Errorf("%s: end %q without a begin", mk.where, mk.name))
		case mk.name != open.name:
			errs = append(errs, fmt.Errorf("%s: end %q does not match region %q opened at %s (misnested)", mk.where, mk.name, open.name, open.where))
			open = nil
		default:
			cur.decls = declsBetween(f, open.pos, mk.pos)
			if len(cur.decls) == 0 {
				errs = append(errs, fmt.Errorf("%s: region %q is empty: it holds no declaration", open.where, open.name))
			} else {
				out = append(out, cur)
			}
			open = nil
		}
	}
	if open != nil {
		errs = append(errs, fmt.Errorf("%s: begin %q has no end in %s", open.where, open.name, name))
	}
	return out, errs
}

// fileMarkers parses the file's //semguard: comments and checks each is
// well formed and sits between declarations.
func (m *module) fileMarkers(f *ast.File) ([]marker, []error) {
	var out []marker
	var errs []error
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if !strings.HasPrefix(c.Text, markerPrefix) {
				continue
			}
			where := m.where(c.Pos())
			mk, err := parseMarker(c.Text)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", where, err))
				continue
			}
			if d := enclosingDecl(f, c.Pos()); d != nil {
				errs = append(errs, fmt.Errorf("%s: marker %q inside the declaration at %s: put markers between top-level declarations", where, c.Text, m.where(d.Pos())))
				continue
			}
			mk.pos, mk.where = c.Pos(), where
			out = append(out, mk)
		}
	}
	return out, errs
}

func parseMarker(text string) (marker, error) {
	fields := strings.Fields(text)
	var mk marker
	switch fields[0] {
	case beginMarker:
		mk.begin = true
	case endMarker:
	default:
		return mk, fmt.Errorf("unknown marker %q: want %s NAME or %s NAME", fields[0], beginMarker, endMarker)
	}
	if len(fields) != 2 || !regionName.MatchString(fields[1]) {
		return mk, fmt.Errorf("marker %q: want exactly one region name (lower case letters, digits, . _ - /)", text)
	}
	mk.name = fields[1]
	return mk, nil
}

func enclosingDecl(f *ast.File, pos token.Pos) ast.Decl {
	for _, d := range f.Decls {
		if d.Pos() <= pos && pos < d.End() {
			return d
		}
	}
	return nil
}

// declsBetween returns the declarations of f after from and before to.
func declsBetween(f *ast.File, from, to token.Pos) []ast.Decl {
	var out []ast.Decl
	for _, d := range f.Decls {
		if d.Pos() > from && d.End() < to {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			out = append(out, d)
		}
	}
	return out
}

func (m *module) where(pos token.Pos) string {
	p := m.fset.Position(pos)
	return fmt.Sprintf("%s:%d", m.relPath(p.Filename), p.Line)
}

// joinIndented joins errors one per line, indented under a heading.
func joinIndented(errs []error) error {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New(strings.Join(msgs, "\n  "))
}
