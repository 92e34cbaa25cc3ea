package semguard

import (
	"fmt"
	"go/format"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Each test below mutates a copy of the module and runs the guard on it.

// TestGuardTrips: a change to a helper outside every region, reached only
// through calls — the text normalizer, the chunk hash, the fingerprint
// encoder, the embedder's tokenizer — and one changed byte of the built-in
// embedder's go:embed table each fail the guard, naming the symbol, the
// regions that reach it and what to do. The mutations share one copy (a
// symbol's digest depends on its own code only, and each is asserted on
// its own), so the module is loaded once.
func TestGuardTrips(t *testing.T) {
	t.Parallel()
	root := copyModule(t)
	tests := []struct {
		name, recv, fn, old, new string
		region                   string
		symbol                   string // filled from where the function is
	}{
		{name: "text normalizer", fn: "cleanUTF8", old: `sb.WriteByte('\n')`, new: `sb.WriteByte(' ')`, region: "parse"},
		{name: "chunk hash", fn: "Key", old: `blake3.Sum256([]byte(body))`, new: `blake3.Sum256([]byte(body + "\x00"))`, region: "vector-input"},
		{name: "fingerprint encoder", recv: "*encoder", fn: "str", old: `e.uint(uint64(len(s)))`, new: `e.uint(uint64(len(s)) + 1)`, region: "fingerprint"},
		{name: "embedder tokenizer", fn: "isASCIIPunct", old: "'!' <= r && r <= '/'", new: "'!' <= r && r <= '.'", region: "static-embedder"},
	}
	for i, tt := range tests {
		tests[i].symbol = editFunc(t, root, tt.recv, tt.fn, tt.old, tt.new)
	}
	p := filepath.Join(root, "engine/embed/static/potion.tab")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	tests = append(tests, struct{ name, recv, fn, old, new, region, symbol string }{name: "embedded table", region: "static-embedder", symbol: "engine/embed/static.table"})

	st, rec := state(t, root)
	err = st.verdict(rec, Project)
	mustContain(t, err, "bump engine.IndexSemanticsVersion in engine/settings.go", "make semguard-update REFACTOR=1")
	d := st.diff(rec)
	for _, tt := range tests {
		if !slices.ContainsFunc(d.Symbols, func(s string) bool { return strings.HasPrefix(s, tt.symbol+" (changed; reached from ") }) {
			t.Errorf("%s: %s is not reported changed:\n%s", tt.name, tt.symbol, d)
		}
		if !slices.Contains(d.Regions, tt.region+" (changed)") {
			t.Errorf("%s: region %s is not reported changed:\n%s", tt.name, tt.region, d)
		}
	}
	if len(d.Symbols) != len(tests) {
		t.Errorf("%d symbols changed, want the %d mutated:\n%s", len(d.Symbols), len(tests), d)
	}
}

// TestGuardIgnoresCommentsAndFormatting: comments added or edited inside
// and around guarded code, a file re-indented the way gofmt undoes, and a
// call's arguments reflowed over lines do not fail the guard.
func TestGuardIgnoresCommentsAndFormatting(t *testing.T) {
	t.Parallel()
	root := copyModule(t)
	editFunc(t, root, "", "cleanUTF8", "func cleanUTF8(b []byte) string {", "func cleanUTF8(b []byte) string { // a new comment\n\t/* and a block comment */")
	editFunc(t, root, "", "cleanUTF8", "// cleanUTF8 ", "// cleanUTF8 (its doc comment edited) ")
	edit(t, root, "fingerprint/compute.go", "e.buf = binary.AppendUvarint(e.buf, v)", "e.buf = binary.AppendUvarint(\n\t\te.buf,\n\t\tv,\n\t)")
	gofmtOnly(t, filepath.Join(root, "engine/embed/wordpiece/tokenizer.go"))
	if err := Check(root, Project); err != nil {
		t.Fatalf("comment and formatting changes failed the guard: %v", err)
	}
}

// gofmtOnly rewrites the file at p without indentation and with extra
// spaces around assignments, after checking gofmt turns that back into
// the original.
func gofmtOnly(t *testing.T, p string) {
	t.Helper()
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(orig), "\n")
	for i, l := range lines {
		lines[i] = strings.Replace(strings.TrimLeft(l, "\t"), " := ", "   :=   ", 1)
	}
	mutated := strings.Join(lines, "\n")
	if back, err := format.Source([]byte(mutated)); err != nil || string(back) != string(orig) || mutated == string(orig) {
		t.Fatalf("the mutation of %s is not gofmt-only (err %v)", p, err)
	}
	if err := os.WriteFile(p, []byte(mutated), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestQueryTimeChange: changing k1 and the fusion weight does not fail
// the index guard and needs no bump, but changes the query digest — each
// change is seen in it — so the guard says the compiled-in digest (a part
// of every query-cache key) is stale until make semguard-update records
// it.
func TestQueryTimeChange(t *testing.T) {
	t.Parallel()
	base, err := baseline()
	if err != nil {
		t.Fatal(err)
	}
	root := copyModule(t)
	edit(t, root, "engine/settings.go", "DefaultK1 = 0.9", "DefaultK1 = 1.2")
	edit(t, root, "engine/querysettings.go", "Fusion{Method: FusionConvex, Alpha: 0.8}", "Fusion{Method: FusionConvex, Alpha: 0.7}")
	st, rec := state(t, root)
	if d := st.diff(rec); !d.Empty() {
		t.Fatalf("a query-time change tripped the index guard:\n%s", d)
	}
	for _, sym := range []string{"engine.DefaultK1,DefaultB", "engine.DefaultConvex"} {
		if st.QuerySymbols[sym] == "" || st.QuerySymbols[sym] == base.QuerySymbols[sym] {
			t.Errorf("%s: change not seen by the query digest", sym)
		}
	}
	if st.Query == base.Query {
		t.Fatalf("query digest unchanged (%s): the query-cache key would not change", st.Query)
	}
	mustContain(t, st.verdict(rec, Project), "the query-time code changed", "run `make semguard-update` (no version bump",
		"engine.DefaultK1,DefaultB (changed)", "engine.DefaultConvex (changed)")
	msg := update(t, st, rec, root, false)
	if !strings.Contains(msg, "no guarded code changed") || !strings.Contains(msg, "q-"+st.Query) || !strings.Contains(msg, "engine.DefaultConvex (changed)") {
		t.Errorf("update says %q", msg)
	}
	if err := Check(root, Project); err != nil {
		t.Fatalf("after the update: %v", err)
	}
}

// state computes the copy's state and reads its record.
func state(t *testing.T, root string) (*State, *Record) {
	t.Helper()
	st, err := Compute(root, Project)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := readRecord(root, Project)
	if err != nil || rec == nil {
		t.Fatalf("read record: %v", err)
	}
	return st, rec
}

// update is Update on a computed state: it fails the test when the update
// refuses.
func update(t *testing.T, st *State, rec *Record, root string, refactor bool) string {
	t.Helper()
	msg, err := st.decide(rec, Project, refactor)
	if err != nil {
		t.Fatalf("update refused: %v", err)
	}
	if err := st.write(root, Project); err != nil {
		t.Fatal(err)
	}
	return msg
}

// bumpVersion raises IndexSemanticsVersion by one in the copy.
func bumpVersion(t *testing.T, root string) (from, to int) {
	t.Helper()
	base, err := baseline()
	if err != nil {
		t.Fatal(err)
	}
	from, to = base.Version, base.Version+1
	edit(t, root, "engine/settings.go", fmt.Sprintf("const IndexSemanticsVersion = %d", from), fmt.Sprintf("const IndexSemanticsVersion = %d", to))
	return from, to
}

// TestBumpWithoutChangeFails: a bump with no guarded change fails the
// guard, and the update refuses to record it, even as a refactor.
func TestBumpWithoutChangeFails(t *testing.T) {
	t.Parallel()
	root := copyModule(t)
	from, to := bumpVersion(t, root)
	st, rec := state(t, root)
	want := fmt.Sprintf("was bumped %d → %d but no guarded code changed", from, to)
	mustContain(t, st.verdict(rec, Project), want, "revert the bump")
	_, err := st.decide(rec, Project, false)
	mustContain(t, err, "refused", want)
	_, err = st.decide(rec, Project, true)
	mustContain(t, err, "refused", want)
}

// TestUpdateRules: a guarded change is refused without a bump, recorded
// with one, or recorded as a refactor when told so; after the update the
// guard passes.
func TestUpdateRules(t *testing.T) {
	t.Parallel()
	root := copyModule(t)
	normalizer := editFunc(t, root, "", "cleanUTF8", `sb.WriteByte('\n')`, `sb.WriteByte(' ')`)
	st, rec := state(t, root)
	_, err := st.decide(rec, Project, false)
	mustContain(t, err, "refused", normalizer+" (changed", "REFACTOR=1")

	from, to := bumpVersion(t, root)
	st, rec = state(t, root)
	mustContain(t, st.verdict(rec, Project), fmt.Sprintf("was bumped %d → %d for these changes", from, to),
		normalizer+" (changed", "record the new digests with `make semguard-update`")
	msg := update(t, st, rec, root, false)
	if want := fmt.Sprintf("recorded the digests at engine.IndexSemanticsVersion = %d (was %d)", to, from); !strings.Contains(msg, want) || !strings.Contains(msg, normalizer) {
		t.Errorf("update says %q; want %q and the symbol", msg, want)
	}

	editFunc(t, root, "", "cleanUTF8", `sb.WriteByte(' ')`, `sb.WriteByte('\t')`)
	st, rec = state(t, root)
	mustContain(t, st.verdict(rec, Project), fmt.Sprintf("is still %d", to))
	if msg := update(t, st, rec, root, true); !strings.Contains(msg, "recorded a pure refactor") {
		t.Errorf("refactor update says %q", msg)
	}
	if err := Check(root, Project); err != nil {
		t.Fatalf("after the updates: %v", err)
	}
}

// TestNewPackageIsFollowed: a package added to the module and called from
// guarded code is digested without any configuration.
func TestNewPackageIsFollowed(t *testing.T) {
	t.Parallel()
	root := copyModule(t)
	rel, _, _ := findFunc(t, root, "", "cleanUTF8")
	dir := path.Join(path.Dir(rel), "semguardfold")
	src := "package semguardfold\n\nimport \"strings\"\n\n// Fold trims.\nfunc Fold(s string) string { return trim(s) }\n\nfunc trim(s string) string { return strings.TrimSpace(s) }\n"
	if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, dir, "fold.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	normalizer := editFunc(t, root, "", "cleanUTF8", "func cleanUTF8(b []byte) string {\n", "func cleanUTF8(b []byte) string {\n\tb = []byte(semguardfold.Fold(string(b)))\n")
	p := filepath.Join(root, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	pkgLine := regexp.MustCompile(`(?m)^package \w+\n`)
	loc := pkgLine.FindIndex(b)
	imp := "\nimport \"github.com/autorag/autorag/" + dir + "\"\n"
	if err := os.WriteFile(p, []byte(string(b[:loc[1]])+imp+string(b[loc[1]:])), 0o644); err != nil {
		t.Fatal(err)
	}
	mustContain(t, Check(root, Project), dir+".Fold (newly reached", dir+".trim (newly reached", normalizer+" (changed")
}

// TestRegionReachingQueryTimeCodeFails: guarded code that uses a
// query-time symbol is an error that shows the path.
func TestRegionReachingQueryTimeCodeFails(t *testing.T) {
	t.Parallel()
	root := copyModule(t)
	editFunc(t, root, "Settings", "fingerprinted", `fmt.Sprint(s.MaxFileSize)`, `fmt.Sprint(s.MaxFileSize, DefaultK1)`)
	mustContain(t, Check(root, Project), `region "fingerprint-settings"`, "reaches the query-time symbol engine.DefaultK1,DefaultB",
		"engine.Settings.fingerprinted → engine.DefaultK1,DefaultB")
}

// TestConfigNamesMustExist: a query-time symbol or root that does not
// exist (renamed by a change elsewhere) is an error naming it, not a
// silently smaller list.
func TestConfigNamesMustExist(t *testing.T) {
	t.Parallel()
	cfg := Project
	cfg.QueryTime = append(slices.Clone(cfg.QueryTime), "engine.scoreGone", "engine.Settings.Gone")
	_, err := Compute("..", cfg)
	mustContain(t, err, "symbol engine.scoreGone not found", "symbol engine.Settings.Gone not found", "semguard/config.go")
}

// TestGuardReachesInterfaceMethods: methods reached only through an
// interface a value was converted to — a reader passed to a decoder, a
// reader returned as io.ReadCloser — and the OpenAI embedder's averaging
// of a split text's vectors each fail the guard when changed.
func TestGuardReachesInterfaceMethods(t *testing.T) {
	t.Parallel()
	root := copyModule(t)
	tests := []struct {
		name, recv, fn, old, new string
		region                   string
		symbol                   string
	}{
		{name: "base64 space stripper (argument to base64.NewDecoder)", recv: "*stripSpace", fn: "Read",
			old: `c != '\r' && c != '\n'`, new: `c != '\r'`, region: "email-parser"},
		{name: "decompression budget (returned as io.ReadCloser)", recv: "*budgetReader", fn: "Read",
			old: `return 0, fmt.Errorf("%w: more than %d bytes decompressed", parse.ErrTooLarge, b.p.limit)`, new: `return 0, io.EOF`, region: "xlsx-parser"},
		{name: "OpenAI split-and-average weight", recv: "pieces", fn: "join",
			old: `w := float64(len(p.inputs[i]))`, new: `w := 1.0`, region: "openai-embedder"},
	}
	for i, tt := range tests {
		tests[i].symbol = editFunc(t, root, tt.recv, tt.fn, tt.old, tt.new)
	}
	st, rec := state(t, root)
	d := st.diff(rec)
	for _, tt := range tests {
		if !slices.ContainsFunc(d.Symbols, func(s string) bool { return strings.HasPrefix(s, tt.symbol+" (changed; reached from ") }) {
			t.Errorf("%s: %s is not reported changed:\n%s", tt.name, tt.symbol, d)
		}
		if !slices.Contains(d.Regions, tt.region+" (changed)") {
			t.Errorf("%s: region %s is not reported changed:\n%s", tt.name, tt.region, d)
		}
	}
	mustContain(t, st.verdict(rec, Project), "bump engine.IndexSemanticsVersion")
}
