package main

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/fingerprint"
)

// The query cache is invisible except for "cached" and speed: every test
// below checks that a cached answer is exactly the answer the index gives,
// and that whatever changes the answer (a commit by another process, a
// rebuild, a reset, a query-time setting, a damaged entry) is a miss.

// queryRun runs `autorag query --json` with args in root and returns the
// envelope.
func queryRun(t *testing.T, env []string, root string, args ...string) map[string]any {
	t.Helper()
	full := append([]string{"--root", root, "query", "--json"}, args...)
	r := cli(t, env, full...)
	if r.code != 0 {
		t.Fatalf("autorag %v: exit %d\nstdout: %s\nstderr: %s", full, r.code, r.stdout, r.stderr)
	}
	return r.json(t)
}

// wantCached fails unless the envelope's "cached" is want.
func wantCached(t *testing.T, m map[string]any, want bool, what string) {
	t.Helper()
	if got, ok := m["cached"].(bool); !ok || got != want {
		t.Errorf("%s: cached = %v, want %v", what, m["cached"], want)
	}
}

// queryTwice runs a query and its repeat, fails unless the repeat is
// served from the cache with the same results, and returns the first
// answer.
func queryTwice(t *testing.T, env []string, root, what string, args ...string) map[string]any {
	t.Helper()
	first := queryRun(t, env, root, args...)
	repeat := queryRun(t, env, root, args...)
	wantCached(t, repeat, true, what+": repeat")
	sameResults(t, first, repeat, what+": repeat")
	return first
}

// sameResults fails unless two envelopes hold deep-equal results arrays.
func sameResults(t *testing.T, want, got map[string]any, what string) {
	t.Helper()
	if _, ok := got["results"].([]any); !ok {
		t.Fatalf("%s: no results array in %v", what, got)
	}
	if d := cmp.Diff(want["results"], got["results"]); d != "" {
		t.Errorf("%s: results differ (-want +got):\n%s", what, d)
	}
}

// sidecarFingerprint reads the fingerprint the committed sidecar names.
func sidecarFingerprint(t *testing.T, root string) string {
	t.Helper()
	sc, err := fingerprint.ReadSidecar(filepath.Join(root, ".autorag", "fingerprint.json"))
	if err != nil {
		t.Fatal(err)
	}
	return sc.Fingerprint
}

// corpusWords returns the distinct words (3+ letters) of the corpus's text
// files, sorted, to draw random queries from.
func corpusWords(t *testing.T, root string) []string {
	t.Helper()
	word := regexp.MustCompile(`[A-Za-z][a-z]{2,}`)
	set := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".bin") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, w := range word.FindAllString(string(b), -1) {
			set[w] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	words := make([]string, 0, len(set))
	for w := range set {
		words = append(words, w)
	}
	slices.Sort(words)
	if len(words) < 100 {
		t.Fatalf("only %d words in the corpus", len(words))
	}
	return words
}

// queryCombo is one random query; loose says the repeat spells the text
// with extra whitespace (the key folds it).
type queryCombo struct {
	text       string
	mode       string
	k, perFile int
	path       string
	explain    bool
	loose      bool
}

func (c queryCombo) args() []string {
	a := []string{"--mode", c.mode, "-k", fmt.Sprint(c.k), "--per-file", fmt.Sprint(c.perFile)}
	if c.path != "" {
		a = append(a, "--path", c.path)
	}
	if c.explain {
		a = append(a, "--explain")
	}
	return a
}

var (
	comboModes = []string{"bm25", "vector", "hybrid"}
	comboGlobs = []string{"", "*.md", "docs/**", "*.go", "scripts/*.py"}
)

// randomCombos returns n/2 random queries, each followed by a sibling that
// differs in exactly one option (mode, k, per-file, path or explain), so
// an option missing from the key shows as a sibling served from its
// base's entry.
func randomCombos(r *rand.Rand, words []string, n int) []queryCombo {
	seen := map[string]bool{}
	var out []queryCombo
	for i := 0; len(out) < n; i++ {
		q := make([]string, 1+r.IntN(4))
		for j := range q {
			q[j] = words[r.IntN(len(words))]
		}
		base := queryCombo{text: strings.Join(q, " "), mode: comboModes[i%len(comboModes)], k: 1 + r.IntN(12),
			perFile: 1 + r.IntN(3), path: comboGlobs[r.IntN(len(comboGlobs))], explain: r.IntN(3) == 0, loose: r.IntN(4) == 0}
		sib := base
		switch i % 5 {
		case 0:
			sib.mode = comboModes[(i+1+r.IntN(2))%len(comboModes)]
		case 1:
			sib.k = (base.k+r.IntN(11))%12 + 1
		case 2:
			sib.perFile = (base.perFile+r.IntN(2))%3 + 1
		case 3:
			sib.path = comboGlobs[(slices.Index(comboGlobs, base.path)+1+r.IntN(len(comboGlobs)-1))%len(comboGlobs)]
		case 4:
			sib.explain = !base.explain
		}
		idb, ids := base.text+"\x00"+strings.Join(base.args(), " "), sib.text+"\x00"+strings.Join(sib.args(), " ")
		if idb == ids || seen[idb] || seen[ids] {
			continue // a repeat's first run would be a hit
		}
		seen[idb], seen[ids] = true, true
		out = append(out, base, sib)
	}
	return out
}

// TestQueryCacheEquivalence: for random queries in every mode with random
// options, the first run is a miss, the repeat is a hit, and both answer
// exactly what --no-cache answers.
func TestQueryCacheEquivalence(t *testing.T) {
	root := copyCorpus(t)
	words := corpusWords(t, root)
	refreshJSON(t, root)
	combos := randomCombos(rand.New(rand.NewPCG(7, 11)), words, 40)
	nonEmpty := 0
	for _, c := range combos {
		what := fmt.Sprintf("%q %v", c.text, c.args())
		first := queryRun(t, nil, root, append(c.args(), c.text)...)
		wantCached(t, first, false, what+" first run")
		text := c.text
		if c.loose {
			text = "  " + strings.ReplaceAll(c.text, " ", " \t ") + " "
		}
		second := queryRun(t, nil, root, append(c.args(), text)...)
		wantCached(t, second, true, what+" repeat")
		fresh := queryRun(t, nil, root, append(c.args(), "--no-cache", c.text)...)
		wantCached(t, fresh, false, what+" --no-cache")
		sameResults(t, first, second, what+" repeat")
		sameResults(t, fresh, first, what+" first run against --no-cache")
		if second["fingerprint"] != fresh["fingerprint"] || second["generation"] != fresh["generation"] {
			t.Errorf("%s: cached answer from %v/%v, index at %v/%v", what,
				second["fingerprint"], second["generation"], fresh["fingerprint"], fresh["generation"])
		}
		if len(fresh["results"].([]any)) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < len(combos)/2 {
		t.Errorf("only %d of %d random queries found anything: the property is barely exercised", nonEmpty, len(combos))
	}
}

// TestQueryCacheSeesRefreshByAnotherProcess: a commit by another process
// makes the next query a miss that answers from the new generation.
func TestQueryCacheSeesRefreshByAnotherProcess(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	const q = "kingfisher nesting burrow"
	before := queryTwice(t, nil, root, "before the edit", q)

	writeFile(t, root, "docs/kingfisher.md", "# Kingfisher\n\nThe kingfisher digs a nesting burrow; "+
		"every kingfisher burrow is a nesting site.\n")
	ref := refreshJSON(t, root)
	if ref["outcome"] != "updated" || ref["fingerprint"] == before["fingerprint"] {
		t.Fatalf("refresh after the edit: outcome %v, fingerprint %v (was %v)", ref["outcome"], ref["fingerprint"], before["fingerprint"])
	}

	after := queryRun(t, nil, root, q)
	wantCached(t, after, false, "first query after another process's refresh")
	if fp := sidecarFingerprint(t, root); after["fingerprint"] != fp || after["generation"] != ref["generation"] {
		t.Errorf("answer from %v/%v, want the new sidecar's %v/%v", after["fingerprint"], after["generation"], fp, ref["generation"])
	}
	results := after["results"].([]any)
	if len(results) == 0 || results[0].(map[string]any)["path"] != "docs/kingfisher.md" {
		t.Errorf("after the refresh the top result is not the new file: %v", results)
	}
	sameResults(t, queryRun(t, nil, root, "--no-cache", q), after, "after the refresh against --no-cache")
	wantCached(t, queryRun(t, nil, root, q), true, "repeat after the refresh")
}

// TestQueryCacheRebuildAndReset: a rebuild keeps the fingerprint but
// commits a new generation, so the next query is a miss (with the same
// answer); a reset leaves no index at all, and the first query after the
// next refresh is a miss.
func TestQueryCacheRebuildAndReset(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	const q = "retry with exponential backoff"
	first := queryTwice(t, nil, root, "before the rebuild", q)

	cacheDir := filepath.Join(root, ".autorag", "cache", "query")
	old := saveEntries(t, cacheDir)
	rb := mustOK(t, "--root", root, "index", "rebuild", "--json").json(t)
	if rb["fingerprint"] != first["fingerprint"] || rb["generation"] == first["generation"] {
		t.Fatalf("rebuild: fingerprint %v generation %v; before %v %v", rb["fingerprint"], rb["generation"], first["fingerprint"], first["generation"])
	}
	// The rebuild drops the cache; put back the old generation's entries,
	// as a query that raced the rebuild could have: the key still misses.
	restoreEntries(t, cacheDir, old)
	afterRebuild := queryRun(t, nil, root, q)
	wantCached(t, afterRebuild, false, "first query after index rebuild")
	if afterRebuild["generation"] != rb["generation"] {
		t.Errorf("answer from generation %v, want the rebuilt %v", afterRebuild["generation"], rb["generation"])
	}
	sameResults(t, first, afterRebuild, "rebuild of unchanged sources")

	mustOK(t, "--root", root, "index", "reset", "--yes")
	r := cli(t, nil, "--root", root, "query", "--json", q)
	if r.code != exitUsage {
		t.Fatalf("query after reset: exit %d, want %d (no index)\nstdout: %s\nstderr: %s", r.code, exitUsage, r.stdout, r.stderr)
	}
	if m := r.json(t); m["error"].(map[string]any)["code"] != "no_index" {
		t.Errorf("query after reset: error %v, want code no_index", m["error"])
	}

	refreshJSON(t, root)
	afterReset := queryTwice(t, nil, root, "after reset and refresh", q)
	wantCached(t, afterReset, false, "first query after reset and refresh")
	sameResults(t, first, afterReset, "reset and refresh of unchanged sources")
}

// TestQueryCacheKeyHasQueryTimeSettings: BM25 k1 and the fusion weight
// are query-time settings; an answer cached under one is never served
// under another.
func TestQueryCacheKeyHasQueryTimeSettings(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	const q = "database migration rollback"
	tests := []struct {
		name   string
		env    []string
		args   []string
		differ bool // the setting changes the scores on this query
	}{
		{"default bm25", nil, []string{"--mode", "bm25"}, false},
		{"bm25 k1=1.5", nil, []string{"--mode", "bm25", "--bm25-k1", "1.5"}, true},
		{"bm25 b=0.9 from the environment", []string{"AUTORAG_BM25_B=0.9"}, []string{"--mode", "bm25"}, true},
		{"default hybrid", nil, []string{"--mode", "hybrid"}, false},
		{"hybrid alpha=0.3 from the environment", []string{"AUTORAG_FUSION_ALPHA=0.3"}, []string{"--mode", "hybrid"}, true},
		{"hybrid rrf", nil, []string{"--mode", "hybrid", "--fusion", "rrf"}, true},
	}
	base := map[string]map[string]any{} // the default answer per mode
	for _, tt := range tests {
		args := append(slices.Clone(tt.args), q)
		got := queryTwice(t, tt.env, root, tt.name, args...)
		wantCached(t, got, false, tt.name+": first run")
		sameResults(t, queryRun(t, tt.env, root, append([]string{"--no-cache"}, args...)...), got, tt.name+": against --no-cache")
		mode := tt.args[1]
		if !tt.differ {
			base[mode] = got
			continue
		}
		if cmp.Equal(scores(base[mode]), scores(got)) {
			t.Errorf("%s: same scores as the default %v: the setting was not applied", tt.name, scores(got))
		}
	}
}

// scores lists the results' scores.
func scores(m map[string]any) []any {
	var out []any
	for _, r := range m["results"].([]any) {
		out = append(out, r.(map[string]any)["score"])
	}
	return out
}
