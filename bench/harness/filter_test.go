package main

import (
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func scenarioNames(list []scenario) []string {
	names := make([]string, len(list))
	for i, sc := range list {
		names[i] = sc.Name
	}
	return names
}

func TestFilterScenarios(t *testing.T) {
	h := &harness{runs: 5, caps: capabilities{NoCache: true, Mode: true}}
	st := treeStats{Files: 3, Editable: []string{"a.md", "b.md", "c.md"}}
	all := h.scenarios(t.TempDir(), st, target{Selective: "zorblax00001", Broad: broadQuery})
	if !all[0].MakesIndex || all[0].Name != "first refresh" {
		t.Fatalf("first scenario = %q (MakesIndex %v), want the first refresh", all[0].Name, all[0].MakesIndex)
	}
	for _, sc := range all[1:] {
		if sc.MakesIndex {
			t.Errorf("%q is marked MakesIndex", sc.Name)
		}
	}

	tests := []struct {
		only     string
		want     []string // nil: every scenario
		wantBoot bool
	}{
		{only: "", want: nil},
		{only: "no-op|cached", want: []string{"no-op refresh", "query bm25 selective, cached (repeat)", "query bm25 broad, cached (repeat)"}, wantBoot: true},
		{only: "^first refresh$", want: []string{"first refresh"}},
		{only: "refresh$", want: []string{"first refresh", "no-op refresh"}},
		{only: "rebuild", want: []string{"index rebuild"}, wantBoot: true},
		{only: "nothing matches this", want: []string{}},
		{only: "hybrid", want: []string{"query hybrid selective, --no-cache", "query hybrid broad, --no-cache"}, wantBoot: true},
	}
	for _, tt := range tests {
		var re *regexp.Regexp
		if tt.only != "" {
			re = regexp.MustCompile(tt.only)
		}
		kept, boot := filterScenarios(slices.Clone(all), re)
		want := tt.want
		if want == nil {
			want = scenarioNames(all)
		}
		if got := scenarioNames(kept); !slices.Equal(got, want) {
			t.Errorf("-only %q kept %q, want %q", tt.only, got, want)
		}
		switch {
		case tt.wantBoot && (boot == nil || boot.Name != "first refresh"):
			t.Errorf("-only %q: boot = %v, want the first refresh", tt.only, boot)
		case !tt.wantBoot && boot != nil:
			t.Errorf("-only %q: boot = %q, want none", tt.only, boot.Name)
		}
	}
}

func TestParseFlagsOnly(t *testing.T) {
	cfg, err := parseFlags([]string{"-only", "no-op|cached", "-runs", "3"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Only == nil || cfg.Only.String() != "no-op|cached" || cfg.Runs != 3 {
		t.Errorf("parsed -only %v, -runs %d", cfg.Only, cfg.Runs)
	}
	if cfg, err := parseFlags(nil, io.Discard); err != nil || cfg.Only != nil {
		t.Errorf("no -only: Only = %v, err %v; want nil, nil", cfg.Only, err)
	}
	if _, err := parseFlags([]string{"-only", "("}, io.Discard); err == nil || !strings.Contains(err.Error(), "-only") {
		t.Errorf("-only '(': err = %v, want a -only error", err)
	}
}

func TestShellJoin(t *testing.T) {
	got := shellJoin([]string{"-runs", "5", "-only", "no-op|cached", "-tree", "/a b/it's", "-out", "-", ""})
	want := `-runs 5 -only 'no-op|cached' -tree '/a b/it'\''s' -out - ''`
	if got != want {
		t.Errorf("shellJoin = %s, want %s", got, want)
	}
}
