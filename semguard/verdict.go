package semguard

import (
	"fmt"
	"sort"
	"strings"
)

// Diff is how the source differs from the record.
type Diff struct {
	Regions []string // regions added, removed or changed: "chunk (changed)"
	Symbols []string // "mirror.cleanUTF8 (changed; reached from parse)"
	Modules []string // "parse: github.com/zeebo/blake3@v0.2.4 → …@v0.2.5"
}

// Empty reports whether nothing guarded changed.
func (d Diff) Empty() bool { return len(d.Regions) == 0 }

func (d Diff) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  regions: %s\n", strings.Join(d.Regions, ", "))
	if len(d.Symbols) > 0 {
		b.WriteString("  symbols:\n")
		for _, s := range d.Symbols {
			fmt.Fprintf(&b, "    %s\n", s)
		}
	}
	for _, m := range d.Modules {
		fmt.Fprintf(&b, "  dependency: %s\n", m)
	}
	return b.String()
}

// diff compares the state with a record (nil: none yet).
func (st *State) diff(rec *Record) Diff {
	var d Diff
	if rec == nil {
		rec = &Record{}
	}
	for _, rs := range st.Regions {
		old, ok := rec.Regions[rs.Name]
		switch {
		case !ok:
			d.Regions = append(d.Regions, rs.Name+" (new)")
		case old.Digest != rs.Digest:
			d.Regions = append(d.Regions, rs.Name+" (changed)")
			if a, b := strings.Join(old.Modules, " "), strings.Join(rs.Modules, " "); a != b {
				d.Modules = append(d.Modules, fmt.Sprintf("%s: %s → %s", rs.Name, orNone(a), orNone(b)))
			}
		}
	}
	for name := range rec.Regions {
		if !st.hasRegion(name) {
			d.Regions = append(d.Regions, name+" (removed)")
		}
	}
	sort.Strings(d.Regions)
	for k, v := range st.Symbols {
		from := strings.Join(st.ReachedBy[k], ", ")
		switch old, ok := rec.Symbols[k]; {
		case !ok:
			d.Symbols = append(d.Symbols, fmt.Sprintf("%s (newly reached; from %s)", k, from))
		case old != v:
			d.Symbols = append(d.Symbols, fmt.Sprintf("%s (changed; reached from %s)", k, from))
		}
	}
	for k := range rec.Symbols {
		if _, ok := st.Symbols[k]; !ok {
			d.Symbols = append(d.Symbols, k+" (no longer reached)")
		}
	}
	sort.Strings(d.Symbols)
	return d
}

// queryChanges lists the query-time declarations whose digest differs
// from the record, as ":\n  symbols: a (changed), b (new), ..." ("" when
// the record holds none).
func queryChanges(old, cur map[string]string) string {
	if len(old) == 0 {
		return ""
	}
	var out []string
	for k, v := range cur {
		switch o, ok := old[k]; {
		case !ok:
			out = append(out, k+" (newly reached)")
		case o != v:
			out = append(out, k+" (changed)")
		}
	}
	for k := range old {
		if _, ok := cur[k]; !ok {
			out = append(out, k+" (no longer reached)")
		}
	}
	if len(out) == 0 {
		return ""
	}
	sort.Strings(out)
	return ":\n  symbols:\n    " + strings.Join(out, "\n    ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func (st *State) hasRegion(name string) bool {
	for _, r := range st.Regions {
		if r.Name == name {
			return true
		}
	}
	return false
}

// queryCurrent reports whether the compiled-in query digest is the
// source's.
func (st *State) queryCurrent() bool { return st.Compiled == "q-"+st.Query }

// Check compares the module at root with its record and returns nil when
// the record is current, or an error saying what changed and what to do.
func Check(root string, cfg Config) error {
	st, err := Compute(root, cfg)
	if err != nil {
		return err
	}
	rec, err := readRecord(root, cfg)
	if err != nil {
		return err
	}
	return st.verdict(rec, cfg)
}

func (st *State) verdict(rec *Record, cfg Config) error {
	if rec == nil {
		return fmt.Errorf("semguard: no record at %s yet: run `make semguard-update`", cfg.Record)
	}
	d := st.diff(rec)
	bump := fmt.Sprintf("bump %s in %s to %d", cfg.VersionConst, cfg.VersionFile, rec.Version+1)
	switch {
	case st.Version < rec.Version:
		return fmt.Errorf("semguard: %s is %d but the digests were recorded at %d: a version only goes up (restore %d, or %s)",
			cfg.VersionConst, st.Version, rec.Version, rec.Version, bump)
	case d.Empty() && st.Version > rec.Version:
		return fmt.Errorf("semguard: %s was bumped %d → %d but no guarded code changed: revert the bump (it would rebuild every index and re-embed every chunk for nothing)",
			cfg.VersionConst, rec.Version, st.Version)
	case !d.Empty() && st.Version > rec.Version:
		return fmt.Errorf("semguard: %s was bumped %d → %d for these changes:\n%s"+
			"what to do: record the new digests with `make semguard-update` and commit %s and %s (the bump is seen; nothing else is needed)",
			cfg.VersionConst, rec.Version, st.Version, d, cfg.Record, cfg.QueryFile)
	case !d.Empty():
		return fmt.Errorf("semguard: code that shapes what the index stores changed, and %s is still %d:\n%s"+
			"what to do:\n"+
			"  - if an index or a cached embedding made before this change could differ from one made after it: %s, then run `make semguard-update`;\n"+
			"  - if it is a pure refactor (every input still stores the same bytes): run `make semguard-update REFACTOR=1`;\n"+
			"  then commit %s and %s",
			cfg.VersionConst, st.Version, d, bump, cfg.Record, cfg.QueryFile)
	case !st.queryCurrent():
		return fmt.Errorf("semguard: the query-time code changed and the compiled-in query digest %s (%s) is stale%s\n"+
			"what to do: run `make semguard-update` (no version bump: query-time changes only invalidate the query cache) and commit %s and %s",
			cfg.QueryConst, cfg.QueryFile, queryChanges(rec.Query, st.QuerySymbols), cfg.QueryFile, cfg.Record)
	}
	return nil
}
