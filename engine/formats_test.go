package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/autorag/autorag/engine/embed/static"
)

// formatsEngine indexes a tree of real documents from mirror/testdata.
func formatsEngine(t *testing.T) *Engine {
	t.Helper()
	files := map[string]string{
		"notes/ops.md": "---\ntitle: Ops notes\nauthor: Grace\ntags: [ops, tls]\nstatus: draft\n---\n# Ops\n\nRotate the replication certificate early.\n",
		"src/store.go": "package store\n\n// Rotate replaces the replication certificate.\nfunc (s *Store) Rotate() error {\n\treturn nil\n}\n",
	}
	for _, name := range []string{"report-libreoffice.pdf", "report-libreoffice.docx", "site-chrome.html", "release-notes.eml", "budget-libreoffice.xlsx"} {
		b, err := os.ReadFile(filepath.Join("../mirror/testdata/formats", name))
		if err != nil {
			t.Fatal(err)
		}
		files["docs/"+name] = string(b)
	}
	e := newTestEngine(t, files)
	e.Settings.Embedder = static.New()
	if _, err := e.Refresh(context.Background(), RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	return e
}

func queryTop10(t *testing.T, e *Engine, o QueryOptions) *QueryResult {
	t.Helper()
	o.K = 10
	res, err := e.Query(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestPDFResultsCarryTheirPage(t *testing.T) {
	e := formatsEngine(t)
	res := queryTop10(t, e, QueryOptions{Text: "certificate expired replication paused six hours", Mode: ModeBM25, PerFile: 3})
	var pages []int
	for _, r := range res.Results {
		if r.Path == "docs/report-libreoffice.pdf" {
			pages = append(pages, r.Page)
		}
	}
	if len(pages) == 0 || pages[0] != 2 {
		t.Fatalf("pdf pages in results = %v (results %v)", pages, paths(res))
	}
	for _, r := range res.Results {
		if r.Path != "docs/report-libreoffice.pdf" && r.Page != 0 {
			t.Errorf("%s has page %d", r.Path, r.Page)
		}
	}
}

func TestQueryTypeAndFilters(t *testing.T) {
	e := formatsEngine(t)
	text := "replication certificate"
	cases := []struct {
		o    QueryOptions
		want []string
	}{
		{QueryOptions{Type: "pdf"}, []string{"docs/report-libreoffice.pdf"}},
		{QueryOptions{Type: "office"}, []string{"docs/budget-libreoffice.xlsx", "docs/report-libreoffice.docx"}},
		{QueryOptions{Type: "code"}, []string{"src/store.go"}},
		{QueryOptions{Type: "html"}, []string{"docs/site-chrome.html"}},
		{QueryOptions{Type: "doc"}, []string{"notes/ops.md"}},
		{QueryOptions{Filters: []string{"author=ada lovelace"}}, []string{"docs/report-libreoffice.docx", "docs/report-libreoffice.pdf"}},
		{QueryOptions{Filters: []string{"author=Ada Lovelace"}, Type: "pdf"}, []string{"docs/report-libreoffice.pdf"}},
		{QueryOptions{Filters: []string{"tag=tls", "status=draft"}}, []string{"notes/ops.md"}},
		{QueryOptions{Filters: []string{"tag=tls", "status=final"}}, nil},
	}
	for _, c := range cases {
		c.o.Text, c.o.Mode = text, ModeBM25
		got := paths(queryTop10(t, e, c.o))
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%+v: %v, want %v", c.o, got, c.want)
		}
	}
	// Filters apply to the vector list too.
	got := paths(queryTop10(t, e, QueryOptions{Text: text, Mode: ModeVector, Type: "pdf"}))
	if len(got) != 1 || got[0] != "docs/report-libreoffice.pdf" {
		t.Errorf("vector mode with --type pdf: %v", got)
	}
	if _, err := e.Query(context.Background(), QueryOptions{Text: text, Type: "spreadsheet"}); !errors.Is(err, ErrBadQuery) {
		t.Errorf("unknown type: err = %v", err)
	}
	if err := CheckFilters(QueryOptions{Filters: []string{"novalue"}}); !errors.Is(err, ErrBadQuery) {
		t.Errorf("filter without '=': err = %v", err)
	}
}

func TestSectionsOfOfficeAndCode(t *testing.T) {
	e := formatsEngine(t)
	res := queryTop10(t, e, QueryOptions{Text: "Rotate replication certificate", Mode: ModeBM25, Type: "code"})
	if len(res.Results) != 1 || res.Results[0].Section != "func (s *Store) Rotate" {
		t.Errorf("code section: %+v", res.Results)
	}
	res = queryTop10(t, e, QueryOptions{Text: "replication bandwidth", Mode: ModeBM25, Type: "office", Filters: []string{"lang=xlsx"}})
	if len(res.Results) != 1 || res.Results[0].Section != "Sheet: budget" {
		t.Errorf("sheet section: %+v", res.Results)
	}
}
