package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// versionQueries are asked of testdata/versions, a PowerShell-like tree
// with one folder per product version, with the extra query flags.
var versionQueries = []struct {
	query string
	flags []string
}{
	{"convert an object to JSON", nil},
	{"convert an object to JSON", []string{"--path", "reference/5.1"}},
	{"convert an object to JSON in PowerShell 5.1", nil},
	{"convert an object to JSON", []string{"--no-collapse"}},
	{"format the current date", nil},
	{"save objects to a CSV file", []string{"--path", "reference/**", "--path", "!reference/7.5/**"}},
}

// TestGoldenVersions pins what queries of the version tree answer: each
// page once, shown from its newest version (or the one the query or --path
// names), the other versions as also_in; --no-collapse lists them all. The
// answers are in testdata/golden_versions.txt (-update rewrites it).
func TestGoldenVersions(t *testing.T) {
	root := copyTree(t, filepath.Join("..", "..", "testdata", "versions"))
	refreshJSON(t, root)
	var got []string
	for _, mode := range []string{"bm25", "hybrid"} {
		for _, q := range versionQueries {
			args := append([]string{"--root", root, "query", "--json", "--no-cache", "--mode", mode, "-k", "10"}, q.flags...)
			res := mustOK(t, append(args, q.query)...).json(t)["results"].([]any)
			for _, r := range res {
				r := r.(map[string]any)
				var also []string
				for _, a := range asList(r["also_in"]) {
					also = append(also, a.(map[string]any)["path"].(string))
				}
				got = append(got, fmt.Sprintf("%s\t%s %s\t%v\t%s\t%s", mode, q.query, strings.Join(q.flags, " "), r["rank"], r["path"], strings.Join(also, ",")))
			}
		}
	}
	golden := filepath.Join("testdata", "golden_versions.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if d := cmp.Diff(strings.Split(strings.TrimSpace(string(want)), "\n"), got); d != "" {
		t.Errorf("answers differ from %s (-want +got):\n%s", golden, d)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// The complaint, as a test: one page in three version folders is
// one result, shown from the newest version.
func TestVersionCopiesAreOneResult(t *testing.T) {
	root := copyTree(t, filepath.Join("..", "..", "testdata", "versions"))
	refreshJSON(t, root)
	res := mustOK(t, "--root", root, "query", "--json", "-k", "10", "convert an object to JSON").json(t)["results"].([]any)
	pages := map[string]bool{}
	for _, r := range res {
		p := r.(map[string]any)["path"].(string)
		if _, rest, ok := strings.Cut(strings.TrimPrefix(p, "reference/"), "/"); ok && strings.HasPrefix(p, "reference/") {
			p = rest
		}
		if pages[p] {
			t.Errorf("page %s is listed twice: %v", p, res)
		}
		pages[p] = true
	}
	for _, r := range res[:2] {
		r := r.(map[string]any)
		if p := r["path"].(string); !strings.HasPrefix(p, "reference/7.5/") || !strings.Contains(p, "Json") || len(asList(r["also_in"])) != 2 {
			t.Errorf("result %v %v, want a 7.5 JSON cmdlet with its 7.4 and 5.1 copies in also_in", p, r["also_in"])
		}
	}
}
