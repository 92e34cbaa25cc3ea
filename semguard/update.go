package semguard

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Update records the digests of the module at root, deliberately: it
// refuses when guarded code changed without a version bump unless refactor
// says the change stores the same bytes, and when the version was bumped
// with no change. It returns what it did, for the person who ran it.
func Update(root string, cfg Config, refactor bool) (string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	st, err := Compute(root, cfg)
	if err != nil {
		return "", err
	}
	rec, err := readRecord(root, cfg)
	if err != nil {
		return "", err
	}
	msg, err := st.decide(rec, cfg, refactor)
	if err != nil {
		return "", err
	}
	if err := st.write(root, cfg); err != nil {
		return "", err
	}
	return msg, nil
}

// decide says what an update records, or why it refuses.
func (st *State) decide(rec *Record, cfg Config, refactor bool) (string, error) {
	var b strings.Builder
	query := "query digest unchanged"
	if !st.queryCurrent() {
		query = fmt.Sprintf("query digest %s → q-%s in %s (cached query answers of older binaries are no longer used)", orNone(st.Compiled), st.Query, cfg.QueryFile)
		if rec != nil {
			query += queryChanges(rec.Query, st.QuerySymbols)
		}
	}
	if rec == nil {
		fmt.Fprintf(&b, "semguard: first record: %d regions, %d symbols at %s = %d, in %s; %s\n",
			len(st.Regions), len(st.Symbols), cfg.VersionConst, st.Version, cfg.Record, query)
		return b.String(), nil
	}
	d := st.diff(rec)
	switch {
	case st.Version < rec.Version:
		return "", fmt.Errorf("semguard-update: refused: %s is %d, below the recorded %d; a version only goes up", cfg.VersionConst, st.Version, rec.Version)
	case d.Empty() && st.Version > rec.Version:
		return "", fmt.Errorf("semguard-update: refused: %s was bumped %d → %d but no guarded code changed; revert the bump", cfg.VersionConst, rec.Version, st.Version)
	case !d.Empty() && st.Version == rec.Version && !refactor:
		return "", fmt.Errorf("semguard-update: refused: guarded code changed and %s is still %d:\n%s"+
			"bump it to %d in %s if what is stored changes, or run `make semguard-update REFACTOR=1` if this is a pure refactor",
			cfg.VersionConst, st.Version, d, st.Version+1, cfg.VersionFile)
	case !d.Empty() && st.Version > rec.Version:
		fmt.Fprintf(&b, "semguard: recorded the digests at %s = %d (was %d); every index rebuilds and the built-in embedder re-embeds on the next refresh:\n%s", cfg.VersionConst, st.Version, rec.Version, d)
	case !d.Empty():
		fmt.Fprintf(&b, "semguard: recorded a pure refactor at %s = %d (indexes and cached embeddings are kept):\n%s", cfg.VersionConst, st.Version, d)
	default:
		fmt.Fprintf(&b, "semguard: no guarded code changed (%d regions, %s = %d)\n", len(st.Regions), cfg.VersionConst, st.Version)
	}
	fmt.Fprintf(&b, "semguard: %s\n", query)
	return b.String(), nil
}
