package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRemoteEmbedderEmbedsOnlyNewChunks walks a corpus through add, no-op,
// edit, rename, copy and delete, and checks after each refresh exactly what
// the embeddings API received and that vector and hybrid queries see the
// change.
func TestRemoteEmbedderEmbedsOnlyNewChunks(t *testing.T) {
	srv := newEmbedServer(t, 8)
	e := newHybridEngine(t, map[string]string{
		"a.md":               fieldGuide,
		"b.md":               lynxNote,
		"notes/lynx-copy.md": lynxNote, // same chunk as b.md: embedded once
		"c.go":               badgerCode,
	}, newRemoteEmbedder(t, srv, nil))
	root := e.Layout.Root

	type query struct {
		text    string
		top     []string // paths expected first, in any order
		absent  string   // a path no result may have
		lacking string   // a word no result text may hold
	}
	type counts struct {
		Outcome                                   string
		Added, Modified, Deleted, Renamed, Chunks int
		ChunksEmbedded, Hits, Misses              int
	}
	steps := []struct {
		name    string
		change  func(t *testing.T)
		embed   []string // markers of the chunks that must be sent, one input each
		want    counts
		queries []query
	}{
		{
			name:   "first refresh embeds every distinct chunk once",
			change: func(t *testing.T) {},
			embed:  []string{"heron", "otter", "falcon", "lynx", "badger"},
			want:   counts{Outcome: OutcomeRebuilt, Added: 4, Chunks: 6, ChunksEmbedded: 5, Misses: 6},
			queries: []query{
				{text: "falcon", top: []string{"a.md"}},
				{text: "badger", top: []string{"c.go"}},
			},
		},
		{
			name:    "no-op refresh embeds nothing",
			change:  func(t *testing.T) {},
			want:    counts{Outcome: OutcomeUnchanged, Chunks: 6},
			queries: []query{{text: "otter", top: []string{"a.md"}}},
		},
		{
			name: "editing one paragraph embeds only its chunk",
			change: func(t *testing.T) {
				writeSource(t, root, "a.md", strings.Replace(fieldGuide, "The otter floats on its back.", "The walrus hauls out onto the ice floe.", 1))
			},
			embed:   []string{"walrus"},
			want:    counts{Outcome: OutcomeUpdated, Modified: 1, Chunks: 6, ChunksEmbedded: 1, Hits: 2, Misses: 1},
			queries: []query{{text: "walrus", top: []string{"a.md"}, lacking: "otter"}},
		},
		{
			name: "renaming a file embeds nothing",
			change: func(t *testing.T) {
				writeSource(t, root, "src/badger.go", badgerCode)
				if err := os.Remove(filepath.Join(root, "c.go")); err != nil {
					t.Fatal(err)
				}
			},
			want:    counts{Outcome: OutcomeUpdated, Renamed: 1, Chunks: 6, Hits: 1},
			queries: []query{{text: "badger", top: []string{"src/badger.go"}, absent: "c.go"}},
		},
		{
			name: "copying a file embeds nothing",
			change: func(t *testing.T) {
				b, err := os.ReadFile(filepath.Join(root, "a.md"))
				if err != nil {
					t.Fatal(err)
				}
				writeSource(t, root, "archive/a-copy.md", string(b))
			},
			want:    counts{Outcome: OutcomeUpdated, Added: 1, Chunks: 9, Hits: 3},
			queries: []query{{text: "falcon", top: []string{"a.md", "archive/a-copy.md"}}},
		},
		{
			name: "deleting a file embeds nothing",
			change: func(t *testing.T) {
				if err := os.Remove(filepath.Join(root, "b.md")); err != nil {
					t.Fatal(err)
				}
			},
			want:    counts{Outcome: OutcomeUpdated, Deleted: 1, Chunks: 8},
			queries: []query{{text: "lynx", top: []string{"notes/lynx-copy.md"}, absent: "b.md"}},
		},
	}
	for _, st := range steps {
		st.change(t)
		r := mustRefresh(t, e)
		reqs := srv.take()
		inputs := inputsOf(reqs)
		got := counts{r.Outcome, r.Added, r.Modified, r.Deleted, r.Renamed, r.Chunks, r.ChunksEmbedded, r.EmbedCacheHits, r.EmbedCacheMisses}
		if diff := cmp.Diff(st.want, got); diff != "" {
			t.Errorf("%s: refresh counts (-want +got):\n%s", st.name, diff)
		}
		if r.ChunksEmbedded != len(inputs) {
			t.Errorf("%s: ChunksEmbedded = %d but the server received %d inputs", st.name, r.ChunksEmbedded, len(inputs))
		}
		checkMarkers(t, inputs, st.embed)
		for _, req := range reqs {
			if req.Model != "fake-embed" {
				t.Errorf("%s: request for model %q, want fake-embed", st.name, req.Model)
			}
		}
		for _, mode := range []string{ModeVector, ModeHybrid} {
			for _, qq := range st.queries {
				checkQuery(t, st.name, mustQuery(t, e, mode, qq.text), mode, qq.text, qq.top, qq.absent, qq.lacking)
			}
		}
		srv.take() // query vectors
	}
}

func checkQuery(t *testing.T, step string, q *QueryResult, mode, text string, top []string, absent, lacking string) {
	t.Helper()
	got := paths(q)
	if len(got) < len(top) {
		t.Fatalf("%s: %s query %q returned %v, want %v first", step, mode, text, got, top)
	}
	first := slices.Clone(got[:len(top)])
	slices.Sort(first)
	if diff := cmp.Diff(top, first); diff != "" {
		t.Errorf("%s: %s query %q: first results %v (-want +got):\n%s", step, mode, text, got, diff)
	}
	if !slices.Contains(words(q.Results[0].Text), text) {
		t.Errorf("%s: %s query %q: best result %s holds %q", step, mode, text, q.Results[0].Path, q.Results[0].Text)
	}
	for _, res := range q.Results {
		if absent != "" && res.Path == absent {
			t.Errorf("%s: %s query %q still returns %s: %v", step, mode, text, absent, got)
		}
		if lacking != "" && slices.Contains(words(res.Text), lacking) {
			t.Errorf("%s: %s query %q returns stale text %q from %s", step, mode, text, res.Text, res.Path)
		}
	}
}
