package rank

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/autorag/autorag/engine/record"
)

// The code signals (CodeRerank) re-score a ranking when it is a search of
// code: a fused (or single-list) score s becomes
//
//	s · role · variant · (1 + def·Def + stem·Stem + dir·Dir)
//
// where Def is DefinitionMatch (of the query's identifiers, or at
// NamedCredit of the type names a question in words capitalizes), Stem
// and Dir are PathMatchRare (file-name words weighed by their rarity in
// the window, NameRarity; abbreviations and agent nouns counted), role demotes tests,
// benchmarks, docs, examples, changelogs, generated, vendored code and
// type stubs (FileRole) unless the query asks for them (AskedRoles),
// variant demotes a file for a platform the query does not name
// (Platform) and a header whose implementation is in the window
// (Implemented), and the weights def, stem and dir depend on the query's
// Kind. Then each file's best chunk gains a share of
// the scores of the file's other chunks, each counting for less
// (FileBonus, FileDecay), and those other chunks lose as much. Every
// weight here was chosen on codesearch-dev (docs/QUALITY.md).

// CodeDepth is how many of a ranking's best chunks have their
// definitions looked up (the others count none): a fixed depth, so that a
// result does not depend on -k.
const CodeDepth = 100

// CodeShare is the share of code chunks among the CodeDepth best that
// makes a search one of code: below it the ranking is left as fused
// (prose corpora never change).
const CodeShare = 0.2

// kindWeights are the def, stem and dir weights of each query kind.
var kindWeights = map[Kind][3]float64{
	KindIdentifier: {1.0, 0.5, 0.1},
	KindNatural:    {0.6, 0.7, 0.1},
	KindPath:       {0.3, 1.0, 0.5},
	KindError:      {0.3, 0.1, 0.05},
}

// roleFactors multiply the score of a file of each role the query does
// not ask for (AskedRoles).
var roleFactors = map[Role]float64{
	RoleTest: 0.7, RoleDocs: 0.6, RoleExample: 0.7, RoleChangelog: 0.4,
	RoleGenerated: 0.5, RoleVendored: 0.5, RoleStub: 0.6, RoleBench: 0.7,
}

// FileBonus is the share of its other chunks' scores a file's best chunk
// gains; FileDecay how much less each further chunk counts (and how much
// each further chunk of a file loses for the per-file limit).
const (
	FileBonus = 0.1
	FileDecay = 0.5
)

// CodeSignals are the code signals of one chunk, for explain.
type CodeSignals struct {
	Kind       Kind
	Def        float64 // DefinitionMatch
	Stem, Dir  float64 // PathMatch
	Role       Role
	RoleFactor float64
	Variant    string  // a platform the query does not name, or "header"
	VarFactor  float64 // what Variant multiplies by
	Boost      float64 // 1 + the weighted Def, Stem and Dir
	Base       float64 // the score before the code signals
	FileBonus  float64 // what the file's other chunks added, or took away (< 0)
}

// CodeRerank re-scores the CodeDepth best chunks of ranking with the code
// signals when it is a search of code (CodeShare) and returns them sorted
// again, followed by the rest of ranking as it was; otherwise ranking
// unchanged. Only the fixed window moves, so a deeper ranking (a larger
// -k) reorders the same chunks the same way. defs gives the names a chunk
// defines (nil for none; asked only for code chunks).
func CodeRerank(ranking []Fused, q Query, defs func(id string) []string) []Fused {
	top := ranking[:min(CodeDepth, len(ranking))]
	code := 0
	for _, x := range top {
		if q.isCode(x.ID) {
			code++
		}
	}
	if len(top) == 0 || float64(code) < CodeShare*float64(len(top)) {
		return ranking
	}
	kind := QueryKind(q.Text)
	w := kindWeights[kind]
	idents := Identifiers(q.Text, kind)
	var named []string
	if kind == KindNatural {
		named = NamedTypes(q.Text, q.Stem)
	}
	pq := NewPathQuery(q.Text, q.Stem)
	asked := AskedRoles(Words(q.Text))
	platforms := AskedPlatforms(q.Text)
	headers := implementedHeaders(top, kind)
	if AsksUsage(q.Text) {
		asked[RoleDocs] = true
	}
	out := slices.Clone(ranking)
	type pathSignals struct {
		stem, dir float64
		role      Role
		variant   string
	}
	byPath := map[string]pathSignals{} // a file's chunks share them
	rare := NameRarity(windowPaths(top), q.Stem)
	for i, x := range top {
		p := record.ChunkPath(x.ID)
		ps, ok := byPath[p]
		if !ok {
			ps.stem, ps.dir = PathMatchRare(pq, p, q.Stem, rare)
			ps.role = FileRole(p)
			ps.variant = variant(p, platforms, headers)
			byPath[p] = ps
		}
		s := &CodeSignals{Kind: kind, Base: x.Score, Role: ps.role, RoleFactor: 1, Stem: ps.stem, Dir: ps.dir,
			Variant: ps.variant, VarFactor: variantFactor(ps.variant)}
		if len(idents)+len(named) > 0 && q.isCode(x.ID) {
			d := defs(x.ID)
			s.Def = max(DefinitionMatch(idents, d), NamedCredit*DefinitionMatch(named, d))
		}
		if f, ok := roleFactors[s.Role]; ok && !asked[s.Role] {
			s.RoleFactor = f
		}
		s.Boost = 1 + w[0]*s.Def + w[1]*s.Stem + w[2]*s.Dir
		x.Score = x.Score * s.RoleFactor * s.VarFactor * s.Boost
		x.Code = s
		out[i] = x
	}
	win := out[:len(top)]
	sortFused(win)
	fileEvidence(win)
	sortFused(win)
	return out
}

// fileEvidence adds to each file's best chunk FileBonus times its other
// chunks' scores, the j-th best (j ≥ 2) weighted FileDecay^(j−2), and
// lowers the j-th best by FileDecay^(j−1). out is sorted best first.
func fileEvidence(out []Fused) {
	type file struct {
		best  int
		seen  int
		bonus float64
	}
	files := map[string]*file{}
	for i := range out {
		p := record.ChunkPath(out[i].ID)
		f := files[p]
		if f == nil {
			files[p] = &file{best: i, seen: 1}
			continue
		}
		f.bonus += FileBonus * out[i].Score * pow(FileDecay, f.seen-1)
		d := out[i].Score * (1 - pow(FileDecay, f.seen))
		out[i].Score -= d
		out[i].Code.FileBonus = -d
		f.seen++
	}
	for _, f := range files {
		out[f.best].Score += f.bonus
		out[f.best].Code.FileBonus = f.bonus
	}
}

func pow(b float64, n int) float64 {
	r := 1.0
	for ; n > 0; n-- {
		r *= b
	}
	return r
}

// explain says what the code signals did to a chunk's score.
func (s *CodeSignals) explain(score float64) string {
	var parts []string
	if s.Def > 0 {
		parts = append(parts, fmt.Sprintf("defines the queried identifier %.3g", s.Def))
	}
	if s.Stem > 0 {
		parts = append(parts, fmt.Sprintf("file name matches %.3g", s.Stem))
	}
	if s.Dir > 0 {
		parts = append(parts, fmt.Sprintf("folders match %.3g", s.Dir))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "; code (%s query): %.5f", s.Kind, s.Base)
	if len(parts) > 0 {
		fmt.Fprintf(&b, " x%.3g (%s)", s.Boost, strings.Join(parts, ", "))
	}
	if s.RoleFactor != 1 {
		fmt.Fprintf(&b, " x%.3g (%s file)", s.RoleFactor, s.Role)
	}
	if s.VarFactor != 1 {
		fmt.Fprintf(&b, " x%.3g (%s)", s.VarFactor, s.Variant)
	}
	switch {
	case s.FileBonus > 0:
		fmt.Fprintf(&b, " %+.5f (the file's other chunks)", s.FileBonus)
	case s.FileBonus < 0:
		fmt.Fprintf(&b, " %+.5f (not the file's best chunk)", s.FileBonus)
	}
	fmt.Fprintf(&b, " -> %.5f", score)
	return b.String()
}

// Loader loads a chunk's stored fields (Page.Walk's load).
type Loader = func(id, path string, ord int) (Result, error)

// DefsOf reads what the definition match needs of a chunk: the
// definitions the index stored for it and its section.
type DefsOf = func(id, path string, ord int) (defs []Def, section string, err error)

// CodeRerankDefs is CodeRerank with the names a code chunk defines as the
// index stored them (Result.Defs), else read from its section
// (SectionDefs, for a chunk or an index without them), as of reads them;
// it returns the first error of.
func CodeRerankDefs(ranking []Fused, q Query, of DefsOf) ([]Fused, error) {
	var firstErr error
	defs := func(id string) []string {
		path, ord := record.SplitChunkID(id)
		d, section, err := of(id, path, ord)
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			return nil
		}
		if len(d) > 0 {
			return DefNames(d)
		}
		return SectionDefs(section)
	}
	out := CodeRerank(ranking, q, defs)
	return out, firstErr
}

// DefReader reads what the definition match needs of a chunk without the
// rest of its stored fields (a backend's lists: backend.DefReader).
type DefReader interface {
	DefsOf(ctx context.Context) (DefsOf, error)
}

// CodeRerankFrom applies the code signals to ranking, reading the chunks'
// definitions as lists reads them alone when it is a DefReader, else
// through load (CodeRerankLoading); it returns the loader for the walk.
func CodeRerankFrom(ctx context.Context, lists any, ranking []Fused, q Query, load Loader) ([]Fused, Loader, error) {
	d, ok := lists.(DefReader)
	if !ok {
		return CodeRerankLoading(ranking, q, load)
	}
	of, err := d.DefsOf(ctx)
	if err != nil {
		return nil, nil, err
	}
	ranking, err = CodeRerankDefs(ranking, q, of)
	return ranking, load, err
}

// CodeRerankLoading is CodeRerankDefs reading the definitions and section
// from the whole stored fields, loaded with load (for a backend that reads
// no less); it returns the ranking and a loader that remembers what was
// loaded, for the walk.
func CodeRerankLoading(ranking []Fused, q Query, load Loader) ([]Fused, Loader, error) {
	type loaded struct {
		r   Result
		err error
	}
	memo := map[string]loaded{}
	cached := func(id, path string, ord int) (Result, error) {
		if l, ok := memo[id]; ok {
			return l.r, l.err
		}
		r, err := load(id, path, ord)
		memo[id] = loaded{r, err}
		return r, err
	}
	of := func(id, path string, ord int) ([]Def, string, error) {
		r, err := cached(id, path, ord)
		return r.Defs, r.Section, err
	}
	out, err := CodeRerankDefs(ranking, q, of)
	return out, cached, err
}
