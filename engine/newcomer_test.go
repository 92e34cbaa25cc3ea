package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Tests of what a new user met on real trees (issue 24), in the engine.

const mail = "From: \"Vladimir L.\" <Vladimir_L@example.com>\nTo: grace@example.com, Ada Lovelace <ada@example.com>\nSubject: Heron counts\nDate: Tue, 1 Dec 2026 07:25:39 +0000\n\nThe heron count for the river is up this year.\n"

// An address field matches a filter on its address, in any case, or on
// its display name, not only on the header as written.
func TestFilterOnAddresses(t *testing.T) {
	e := newTestEngine(t, map[string]string{"mail/counts.eml": mail, "notes.md": "# Herons\n\nHeron notes.\n"})
	mustRefresh(t, e)
	for _, f := range []string{"from=vladimir_l@example.com", "from=VLADIMIR_L@EXAMPLE.COM", "from=Vladimir L.", "to=ada@example.com",
		"to=Ada Lovelace", "to=grace@example.com", `from="Vladimir L." <vladimir_l@example.com>`} {
		res := query(t, e, QueryOptions{Text: "heron", Mode: ModeBM25, Filters: []string{f}})
		if got := paths(res); !slices.Equal(got, []string{"mail/counts.eml"}) {
			t.Errorf("--filter %s: %v, want the mail", f, got)
			continue
		}
		// The result shows the field it was filtered on, as the mail has it.
		key, _, _ := strings.Cut(f, "=")
		if want := map[string]string{"from": `"Vladimir L." <Vladimir_L@example.com>`, "to": "grace@example.com, Ada Lovelace <ada@example.com>"}[key]; res.Results[0].Meta[key] != want {
			t.Errorf("--filter %s: meta %v, want %s=%s", f, res.Results[0].Meta, key, want)
		}
	}
	if got := paths(query(t, e, QueryOptions{Text: "heron", Mode: ModeBM25, Filters: []string{"from=ada@example.com"}})); len(got) != 0 {
		t.Errorf("--filter from=ada@example.com: %v, want nothing (Ada is a recipient)", got)
	}
}

// Data and configuration files are a type of their own.
func TestDataType(t *testing.T) {
	e := newTestEngine(t, map[string]string{"faq.yaml": "question: how do herons fish\n", "fish.go": "package fish\n\n// Heron fishes.\nfunc Heron() {}\n"})
	mustRefresh(t, e)
	if got := paths(query(t, e, QueryOptions{Text: "heron", Mode: ModeBM25, Type: "code"})); !slices.Equal(got, []string{"fish.go"}) {
		t.Errorf("--type code: %v, want the Go file only", got)
	}
	if got := paths(query(t, e, QueryOptions{Text: "herons", Mode: ModeBM25, Type: "data"})); !slices.Equal(got, []string{"faq.yaml"}) {
		t.Errorf("--type data: %v, want the YAML file", got)
	}
}

// A --path that matches no indexed file says so; several --path patterns
// are alternatives.
func TestPathHintAndAlternatives(t *testing.T) {
	e := newTestEngine(t, map[string]string{"reference/7.5/a.md": "# Heron\n\nheron\n", "reference/5.1/a.md": "# Heron\n\nheron old\n", "docs/b.md": "# B\n\nheron b\n"})
	mustRefresh(t, e)
	res := query(t, e, QueryOptions{Text: "heron", Mode: ModeBM25, PathGlob: "reference/9.9"})
	if len(res.Results) != 0 || !strings.Contains(res.Hint, "matches none of the 3 indexed files") {
		t.Errorf("unknown folder: %v, hint %q", paths(res), res.Hint)
	}
	res = query(t, e, QueryOptions{Text: "heron", Mode: ModeBM25, PathGlobs: []string{"reference/5.1", "docs"}, NoCollapse: true})
	if got := paths(res); len(got) != 2 || slices.Contains(got, "reference/7.5/a.md") || res.Hint != "" {
		t.Errorf("two --path patterns: %v (hint %q)", got, res.Hint)
	}
}

// A targeted refresh of a path that names nothing warns; parse is a stage
// of its own.
func TestRefreshNotesUnknownPathsAndTimesParse(t *testing.T) {
	e := newTestEngine(t, map[string]string{"a.md": "# A\n"})
	res := mustRefresh(t, e)
	if _, ok := res.Stages["parse"]; !ok {
		t.Errorf("stages %v lack parse", res.Stages)
	}
	res, err := e.Refresh(t.Context(), RefreshOptions{Paths: []string{"nonexist.pdf", "a.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "nonexist.pdf: no such file") {
		t.Errorf("warnings %q, want one naming nonexist.pdf", res.Warnings)
	}
}

// A word only one file has: its file is the answer, and the pages the
// dense list pads the list with, far below it in similarity, are dropped.
func TestVectorOnlyFarBelowTheBestIsDropped(t *testing.T) {
	files := map[string]string{"zz/glimmer.md": "# Notes\n\nThe glimmerquash setting controls how the exporter retries.\n"}
	for i, topic := range []string{"exporter configuration and retries", "collector pipelines and receivers", "sampling of traces",
		"metrics and histograms", "logs and severity", "resource attributes", "context propagation", "batch processing of spans"} {
		files[fmt.Sprintf("docs/p%d.md", i)] = fmt.Sprintf("# Page %d\n\nThis page is about %s in the collector and the SDK.\n", i, topic)
	}
	e := localEngine(t, files)
	res := query(t, e, QueryOptions{Text: "glimmerquash", Mode: ModeHybrid, Explain: true})
	if got := paths(res); !slices.Equal(got, []string{"zz/glimmer.md"}) {
		t.Errorf("results %v, want the one file that has the word (%s)", got, res.Explain)
	}
	if !strings.Contains(res.Explain, "of the best similarity") {
		t.Errorf("explain %q does not say why the others were dropped", res.Explain)
	}
}

// --explain says the fusion once, for the query, not again in every result.
func TestExplainNamesTheFusionOnce(t *testing.T) {
	e := localEngine(t, map[string]string{"a.md": "# Herons\n\nThe heron fishes.\n", "b.md": "# Boats\n\nA heron on a boat.\n"})
	res := query(t, e, QueryOptions{Text: "heron", Mode: ModeHybrid, Explain: true})
	if !strings.Contains(res.Explain, "fusion "+res.Fusion) {
		t.Errorf("query explain %q does not name the fusion %q", res.Explain, res.Fusion)
	}
	if len(res.Results) != 2 {
		t.Fatalf("results %v, want both files (each has the word)", paths(res))
	}
	for _, r := range res.Results {
		if strings.Contains(r.Explain, res.Fusion) {
			t.Errorf("%s: explain %q repeats the fusion", r.Path, r.Explain)
		}
	}
}
