package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine"
)

// formatQueries are the queries whose output every --format pins.
var formatQueries = []string{"retry backoff jitter", "rotate JWT signing keys"}

// TestGoldenFormats pins the output of every --format on the test corpus
// in testdata/format_<name>.golden (-update rewrites them). The json
// envelope's timing and cache flag are zeroed (they differ run to run), and
// so is its fingerprint, which any change to the index semantics moves.
func TestGoldenFormats(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	for _, format := range []string{formatText, formatJSON, formatJSONL, formatFiles, formatMarkdown} {
		t.Run(format, func(t *testing.T) {
			var got bytes.Buffer
			for _, q := range formatQueries {
				out := mustOK(t, "--root", root, "query", "--no-cache", "-k", "3", "--format", format, q).stdout
				if format == formatJSON {
					out = stableEnvelope(t, out)
				}
				got.WriteString(out)
			}
			checkGoldenFile(t, filepath.Join("testdata", "format_"+format+".golden"), got.String())
		})
	}
	// --json stays a synonym of --format json.
	a := stableEnvelope(t, mustOK(t, "--root", root, "query", "--no-cache", "--json", formatQueries[0]).stdout)
	b := stableEnvelope(t, mustOK(t, "--root", root, "query", "--no-cache", "--format", "json", formatQueries[0]).stdout)
	if a != b {
		t.Errorf("--json and --format json differ:\n%s\n%s", a, b)
	}
	if r := cli(t, nil, "--root", root, "query", "--json", "--format", "files", "x"); r.code != exitUsage {
		t.Errorf("--json --format files: exit %d, want %d", r.code, exitUsage)
	}
	if r := cli(t, nil, "--root", root, "query", "--format", "yaml", "x"); r.code != exitUsage || !strings.Contains(r.stderr, "jsonl") {
		t.Errorf("--format yaml: exit %d, stderr %q; want exit 2 listing the formats", r.code, r.stderr)
	}
}

// stableEnvelope re-encodes a query envelope with took_ms, cached and
// fingerprint blanked, indented for readable diffs.
func stableEnvelope(t *testing.T, out string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	m["took_ms"], m["cached"], m["fingerprint"] = 0, false, "(any)"
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func checkGoldenFile(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update once)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s changed (-want +got):\n%s", golden, diff)
	}
}

// TestEmptyQueryIsUsageError checks that an empty or blank query is
// refused with exit 2 and a hint, before any index is needed.
func TestEmptyQueryIsUsageError(t *testing.T) {
	root := t.TempDir()
	for _, q := range []string{"", "   ", "\t\n"} {
		r := cli(t, nil, "--root", root, "query", q)
		if r.code != exitUsage || !strings.Contains(r.stderr, "autorag query \"") {
			t.Errorf("query %q: exit %d, stderr %q; want exit 2 with an example", q, r.code, r.stderr)
		}
	}
	m := cli(t, nil, "--root", root, "query", "--json", " ")
	if m.code != exitUsage || m.json(t)["error"].(map[string]any)["code"] != "usage" {
		t.Errorf("--json blank query: exit %d, %s", m.code, m.stdout)
	}
}

// TestTextHighlightAndBestLines checks the text format's terminal style:
// matched terms (as the analyzer sees them: stems, identifier parts) are
// highlighted, and the lines shown are those that hold the most terms.
func TestTextHighlightAndBestLines(t *testing.T) {
	text := "intro line one\nintro line two\nintro line three\nnothing here\n" +
		"we rotate the signing keys\nwhile rotating JWTs\nand the jwtSigningKey too\nlast line\n"
	res := []engine.Result{{Rank: 1, Path: "a.md", Lines: [2]int{1, 8}, Score: 1, Text: text}}
	var plain, color bytes.Buffer
	printResults(&plain, "rotate jwt signing key", res, textStyle{})
	printResults(&color, "rotate jwt signing key", res, textStyle{color: true})
	wantPlain := "1. a.md:1-8  (1.000)\n   …\n   we rotate the signing keys\n   while rotating JWTs\n   and the jwtSigningKey too\n"
	if diff := cmp.Diff(wantPlain, plain.String()); diff != "" {
		t.Errorf("plain text (-want +got):\n%s", diff)
	}
	hl := func(s string) string { return styleMatch + s + styleReset }
	want := "   we " + hl("rotate") + " the " + hl("signing") + " " + hl("keys") + "\n"
	if !strings.Contains(color.String(), want) {
		t.Errorf("colour output lacks %q:\n%q", want, color.String())
	}
	if !strings.Contains(color.String(), hl("jwt")+hl("Signing")+hl("Key")) {
		t.Errorf("identifier parts not highlighted:\n%q", color.String())
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("plain output has escapes: %q", plain.String())
	}
}

// TestExtrasPrintNewFields: a field a result gains (the quality work adds
// also_in) is printed by the text and markdown formats without their
// code knowing it; the fields they lay out themselves are not repeated.
func TestExtrasPrintNewFields(t *testing.T) {
	type withAlso struct {
		engine.Result
		AlsoIn []location `json:"also_in"`
		Tags   []string   `json:"tags"`
		Note   string     `json:"note,omitempty"`
	}
	r := withAlso{Result: engine.Result{Rank: 1, Path: "a.md", Text: "x", Score: 1},
		AlsoIn: []location{{"b.md", [2]int{1, 4}}, {"c/d.md", [2]int{7, 9}}}, Tags: []string{"x", "y"}}
	got := extras(r)
	want := []extra{{"also in", "b.md:1-4, c/d.md:7-9"}, {"tags", "x, y"}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(extra{})); diff != "" {
		t.Errorf("extras (-want +got):\n%s", diff)
	}
	if got := extras(r.Result); len(got) != 0 {
		t.Errorf("extras of a plain result = %v, want none", got)
	}
}

type location struct {
	Path  string `json:"path"`
	Lines [2]int `json:"lines"`
}
