package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/engine/embed/openai"
)

// progressLog records what a refresh reports: each phase with its unit and
// total, and the units added in it.
type progressLog struct {
	mu     sync.Mutex
	phases []string
	added  map[string]int
	detail []string
}

func (p *progressLog) Phase(name, unit string, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phases = append(p.phases, fmt.Sprintf("%s %d %s", name, total, unit))
	if p.added == nil {
		p.added = map[string]int{}
	}
}

func (p *progressLog) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.added[p.phases[len(p.phases)-1]] += n
}

func (p *progressLog) Detail(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.detail = append(p.detail, s)
}

// TestProgressReportsTheWork checks the phases a refresh reports and that
// their counts are the work done: files parsed and indexed with the
// built-in embedder; with a remote one, the chunks to embed counted ahead
// (the cache's hits excluded) and added up as they are embedded.
func TestProgressReportsTheWork(t *testing.T) {
	files := map[string]string{}
	for i := range 5 {
		files[fmt.Sprintf("d/%d.md", i)] = fmt.Sprintf("# Doc %d\n\nheron %d egret\n\nsecond paragraph %d\n", i, i, i)
	}
	local := newTestEngine(t, files)
	p := &progressLog{}
	if _, err := local.Refresh(context.Background(), RefreshOptions{Progress: p}); err != nil {
		t.Fatal(err)
	}
	want := []string{"scan -1 files", "parse 5 files", "index 5 files", "commit -1 "}
	if diff := cmp.Diff(want, p.phases); diff != "" {
		t.Errorf("phases with the built-in embedder (-want +got):\n%s", diff)
	}
	if p.added["parse 5 files"] != 5 || p.added["index 5 files"] != 5 {
		t.Errorf("added %v, want 5 parsed and 5 indexed", p.added)
	}

	srv := newEmbedServer(t, 8)
	e := newHybridEngine(t, files, newRemoteEmbedder(t, srv, func(c *openai.Config) { c.BatchSize = 1 }))
	p = &progressLog{}
	res, err := e.Refresh(context.Background(), RefreshOptions{Progress: p})
	if err != nil {
		t.Fatal(err)
	}
	embedPhase := fmt.Sprintf("embed %d chunks", res.ChunksEmbedded)
	want = []string{"scan -1 files", "parse 5 files", "embed -1 ", embedPhase, "commit -1 "}
	if diff := cmp.Diff(want, p.phases); diff != "" {
		t.Errorf("phases with a remote embedder (-want +got):\n%s", diff)
	}
	if res.ChunksEmbedded == 0 || p.added[embedPhase] != res.ChunksEmbedded {
		t.Errorf("embed phase added %d chunks, the refresh embedded %d", p.added[embedPhase], res.ChunksEmbedded)
	}
	if !strings.Contains(strings.Join(p.detail, "\n"), "5/5 files indexed") {
		t.Errorf("details never said all files were indexed: %q", p.detail)
	}

	// One file edited: only its new chunk is counted.
	writeSource(t, e.Layout.Root, "d/0.md", "# Doc 0\n\nheron 0 egret\n\na new second paragraph\n")
	p = &progressLog{}
	if res, err = e.Refresh(context.Background(), RefreshOptions{Progress: p}); err != nil {
		t.Fatal(err)
	}
	if res.ChunksEmbedded != 1 || !containsStr(p.phases, "embed 1 chunks") {
		t.Errorf("after one edit: embedded %d, phases %v; want one chunk, counted ahead", res.ChunksEmbedded, p.phases)
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
