package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/mirror"
)

// filterCorpus mixes file types: markdown with frontmatter (one file of
// several chunks, whose later chunks carry no filter terms locally), code,
// a PDF, an office document, HTML, and a mail with a PDF attached.
func (h *contractRoot) writeFilterCorpus(author string) {
	h.t.Helper()
	var long strings.Builder
	fmt.Fprintf(&long, "---\ntitle: Field notes\nauthor: %s\ntags: [birds, tls]\nstatus: draft\n---\n# Field notes\n\n", author)
	for i := range 6 {
		fmt.Fprintf(&long, "## Walk %d\n\n", i)
		for range 12 {
			long.WriteString("We walked along the river and counted the reeds, the stones and the clouds over the water. ")
		}
		if i == 4 {
			long.WriteString("A grey heron stood in the shallows.")
		}
		long.WriteString("\n\n")
	}
	h.write("notes/field.md", long.String())
	h.write("birds/heron.md", "# Heron\n\nThe grey heron fishes at dawn. The heron renews its replication certificate.\n")
	h.write("src/store.go", "package store\n\n// Rotate replaces the replication certificate of the heron store.\nfunc (s *Store) Rotate() error {\n\treturn nil\n}\n")
	for _, name := range []string{"report-libreoffice.pdf", "report-libreoffice.docx", "site-chrome.html", "report-mail.eml"} {
		b, err := os.ReadFile(filepath.Join("../mirror/testdata/formats", name))
		if err != nil {
			h.t.Fatal(err)
		}
		h.write("docs/"+name, string(b))
	}
}

// chunks answers o in bm25 mode, every matching chunk, as
// "path#chunk@attachment", sorted.
func (h *contractRoot) chunks(o QueryOptions) []string {
	h.t.Helper()
	o.Mode, o.K, o.PerFile, o.NoCollapse = ModeBM25, 50, 20, true
	res, err := h.e.Query(h.ctx, o)
	if err != nil {
		h.t.Fatalf("query %+v: %v", o, err)
	}
	var out []string
	for _, r := range res.Results {
		out = append(out, fmt.Sprintf("%s#%d@%s", r.Path, r.Chunk, r.Attachment))
	}
	slices.Sort(out)
	return out
}

// TestContractFilters: --filter and --type keep exactly the chunks of the
// files (and mail entries) that carry every term, in the ranked lists
// themselves, on both backends alike; a filter matching nothing finds
// nothing; an edit of a file's frontmatter moves every chunk of it.
func TestContractFilters(t *testing.T) {
	answers := map[string]map[string][]string{}
	forBackends(t, func(t *testing.T, h *contractRoot) {
		h.writeFilterCorpus("Ada")
		h.refresh(RefreshOptions{})
		got := map[string][]string{}
		answers[h.e.Settings.Backend.name()] = got
		all := h.chunks(QueryOptions{Text: "heron replication certificate"})
		cases := []struct {
			name string
			o    QueryOptions
			want func(id string) bool // which of the unfiltered answer's chunks must remain
		}{
			{"author", QueryOptions{Filters: []string{"author=ada"}}, prefix("notes/field.md#")},
			{"tags", QueryOptions{Filters: []string{"tag=tls", "status=draft"}}, prefix("notes/field.md#")},
			{"code", QueryOptions{Type: "code"}, prefix("src/store.go#")},
			{"doc", QueryOptions{Type: "doc"}, func(id string) bool {
				return strings.HasPrefix(id, "notes/") || strings.HasPrefix(id, "birds/")
			}},
			{"pdf", QueryOptions{Type: "pdf"}, func(id string) bool {
				return strings.HasPrefix(id, "docs/report-libreoffice.pdf#") || strings.HasSuffix(id, "@report-libreoffice.pdf")
			}},
			{"email", QueryOptions{Type: "email"}, func(id string) bool {
				return strings.HasPrefix(id, "docs/report-mail.eml#") && strings.HasSuffix(id, "@")
			}},
			{"pdf-author", QueryOptions{Type: "pdf", Filters: []string{"author=ada lovelace"}}, func(id string) bool {
				return strings.HasPrefix(id, "docs/report-libreoffice.pdf#") || strings.HasSuffix(id, "@report-libreoffice.pdf")
			}},
			{"nothing", QueryOptions{Filters: []string{"tag=tls", "status=final"}}, func(string) bool { return false }},
		}
		for _, c := range cases {
			c.o.Text = "heron replication certificate"
			want := slices.DeleteFunc(slices.Clone(all), func(id string) bool { return !c.want(id) })
			g := h.chunks(c.o)
			got[c.name] = g
			if !slices.Equal(g, want) {
				t.Errorf("%s: %v\nwant %v (of %v)", c.name, g, want, all)
			}
			if c.name != "nothing" && len(g) == 0 {
				t.Errorf("%s: nothing found: the case tests nothing", c.name)
			}
		}
		// The heron is in a later chunk of the file, which carries no terms
		// of its own on the local backend.
		if a := got["author"]; !slices.ContainsFunc(a, func(id string) bool { return !strings.HasPrefix(id, "notes/field.md#0@") }) {
			t.Errorf("author: %v, want a chunk after the first", a)
		}
		// A filtered vector list holds only what passes the filter.
		res, err := h.e.Query(h.ctx, QueryOptions{Text: "heron certificate", Mode: ModeVector, K: 20, Type: "code"})
		if err != nil || len(res.Results) != 1 || res.Results[0].Path != "src/store.go" {
			t.Errorf("vector mode, --type code: %v %v", paths(res), err)
		}
		// The frontmatter changes: an incremental refresh moves every chunk.
		h.writeFilterCorpus("Bob")
		if r := h.refresh(RefreshOptions{}); r.Outcome != OutcomeUpdated {
			t.Fatalf("refresh after the edit: %s", r.Outcome)
		}
		if g := h.chunks(QueryOptions{Text: "heron", Filters: []string{"author=ada"}}); len(g) != 0 {
			t.Errorf("author=ada after the edit: %v", g)
		}
		want := slices.DeleteFunc(h.chunks(QueryOptions{Text: "heron"}), func(id string) bool { return !strings.HasPrefix(id, "notes/field.md#") })
		if g := h.chunks(QueryOptions{Text: "heron", Filters: []string{"author=bob"}}); len(g) == 0 || !slices.Equal(g, want) {
			t.Errorf("author=bob after the edit: %v, want %v", g, want)
		}
		// Another file changes: on Weaviate this update first brings the
		// other collection of the pair up to date with the edit above,
		// copying its objects, filter terms and language included.
		h.write("birds/heron.md", "# Heron\n\nThe grey heron fishes at dusk.\n")
		if r := h.refresh(RefreshOptions{}); r.Outcome != OutcomeUpdated {
			t.Fatalf("second refresh: %s", r.Outcome)
		}
		if g := h.chunks(QueryOptions{Text: "heron", Filters: []string{"author=bob"}}); !slices.Equal(g, want) {
			t.Errorf("author=bob after a second update: %v, want %v", g, want)
		}
	})
	if l, w := answers[BackendLocal], answers[BackendWeaviate]; l != nil && w != nil {
		for name, g := range l {
			if !slices.Equal(g, w[name]) {
				t.Errorf("%s: local %v, weaviate %v", name, g, w[name])
			}
		}
	}
}

func prefix(p string) func(string) bool {
	return func(id string) bool { return strings.HasPrefix(id, p) }
}

// TestWeaviateOldSchemaRebuilds: an index whose backend id predates the
// facets and lang properties is refused by queries with a clear message,
// and the next plain refresh (no --backend) rebuilds it; then filters work.
func TestWeaviateOldSchemaRebuilds(t *testing.T) {
	s := weaviateSettings(t)
	h := newContractRoot(t, s)
	h.writeCorpus()
	h.refresh(RefreshOptions{})
	// Make the committed index look like one an older autorag stored: its
	// backend id without the schema, and the fingerprint it had then.
	sc, err := fingerprint.ReadSidecar(h.e.Layout.SidecarPath())
	if err != nil {
		t.Fatal(err)
	}
	id := sc.Settings["backend"]
	if !strings.HasSuffix(id, fmt.Sprintf(" schema=%d", weaviate.Schema)) {
		t.Fatalf("backend id %q names no schema", id)
	}
	sc.Settings["backend"] = strings.TrimSuffix(id, fmt.Sprintf(" schema=%d", weaviate.Schema))
	man, err := mirror.LoadManifest(h.e.Layout.ManifestPath())
	if err != nil {
		t.Fatal(err)
	}
	var files []fingerprint.FileHash
	for _, en := range man.Entries {
		files = append(files, fingerprint.FileHash{Path: en.Path, TextHash: en.TextHash})
	}
	sc.Fingerprint = fingerprint.Compute(fingerprint.Inputs{SemanticsVersion: sc.SemanticsVersion, Settings: sc.Settings, Files: files})
	if err := fingerprint.WriteSidecar(h.e.Layout.SidecarPath(), sc); err != nil {
		t.Fatal(err)
	}
	if _, err := h.e.Query(h.ctx, QueryOptions{Text: "heron"}); err == nil || !strings.Contains(err.Error(), "run `autorag refresh` to rebuild it") {
		t.Fatalf("query of the old index: %v, want the advice to refresh", err)
	}
	plain := s
	plain.Backend.Name, plain.Backend.Shards, plain.Backend.Replicas = "", 0, 0
	e, err := New(h.e.Layout.Root, plain)
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Refresh(h.ctx, RefreshOptions{})
	if err != nil || r.Outcome != OutcomeRebuilt {
		t.Fatalf("plain refresh of the old index: %+v, %v; want rebuilt", r, err)
	}
	q, err := e.Query(h.ctx, QueryOptions{Text: "heron", Mode: ModeBM25, Type: "doc"})
	if err != nil || len(q.Results) != 1 || q.Results[0].Path != "birds/heron.md" {
		t.Fatalf("filtered query after the rebuild: %v, %v", paths(q), err)
	}
}

// TestVectorFilterReachesPastOversampling: a --path filter whose only file
// ranks below the first thousand chunks by vector still gets it. The dense
// list used to take want×20 (1,000) unfiltered hits and filter those.
func TestVectorFilterReachesPastOversampling(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 1100 {
		write(fmt.Sprintf("near/f%04d.md", i), fmt.Sprintf("The heron waits by the marsh for fish, note %d.\n", i))
	}
	write("far/ledger.md", "Quarterly invoice totals and the tax ledger spreadsheet.\n")
	s := DefaultSettings()
	s.Embedder = static.New()
	e, err := New(root, s)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{ModeVector} {
		res, err := e.Query(ctx, QueryOptions{Text: "heron marsh fish", Mode: mode, K: 5, PathGlob: "far/*"})
		if err != nil {
			t.Fatal(err)
		}
		if got := paths(res); len(got) != 1 || got[0] != "far/ledger.md" {
			t.Fatalf("%s: %v, want [far/ledger.md]", mode, got)
		}
	}
}
