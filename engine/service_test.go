package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/autorag/autorag/engine/embed/static"
)

// ignoreTook compares query results without their timing.
var ignoreTook = cmpopts.IgnoreFields(QueryResult{}, "TookMS")

var serviceFiles = map[string]string{
	"a.md":         "# Alpha\n\nThe heron fishes at dawn.\n\n## Later\n\nThe heron sleeps by the river.\n",
	"b/code.go":    "package b\n\n// ParseConfig reads the heron configuration file.\nfunc ParseConfig() {}\n",
	"c.txt":        "nothing relevant here, only a river and a boat\n",
	"docs/boat.md": "# Boats\n\nA boat on the river carries the heron upstream.\n",
}

func refreshOK(t *testing.T, e *Engine) *RefreshResult {
	t.Helper()
	r, err := e.Refresh(context.Background(), RefreshOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func serviceQuery(t *testing.T, s *Service, o QueryOptions) (*QueryResult, bool) {
	t.Helper()
	r, cached, err := s.Query(context.Background(), o)
	if err != nil {
		t.Fatalf("service query %+v: %v", o, err)
	}
	return r, cached
}

// engineTwin is a second engine on e's root, as another process would
// have: what it commits, e's service must notice through the sidecar.
func engineTwin(t *testing.T, e *Engine) *Engine {
	t.Helper()
	o, err := New(e.Layout.Root, e.Settings)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestServiceAnswersLikeQuery(t *testing.T) {
	s := DefaultSettings()
	s.Embedder = static.New()
	e := newTestEngine(t, serviceFiles)
	e.Settings = s
	refreshOK(t, e)
	svc := NewService(e, 1<<20)
	defer svc.Close()
	for _, o := range []QueryOptions{
		{Text: "heron"},
		{Text: "heron river", K: 2, PerFile: 2},
		{Text: "heron", Mode: ModeBM25, Explain: true},
		{Text: "boat upstream", Mode: ModeVector, K: 3},
		{Text: "heron", Mode: ModeHybrid, PathGlob: "*.md", Explain: true},
		{Text: "heron", PathGlob: "docs/**"},
		{Text: "absent-term-xyzzy", Mode: ModeBM25},
	} {
		want, err := e.Query(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		got, cached := serviceQuery(t, svc, o)
		if cached {
			t.Errorf("%+v: first query reported cached", o)
		}
		if d := cmp.Diff(want, got, ignoreTook); d != "" {
			t.Errorf("%+v: service differs from Engine.Query (-want +got):\n%s", o, d)
		}
		again, cached := serviceQuery(t, svc, o)
		if !cached {
			t.Errorf("%+v: second identical query not cached", o)
		}
		if d := cmp.Diff(want, again, ignoreTook); d != "" {
			t.Errorf("%+v: cached answer differs (-want +got):\n%s", o, d)
		}
	}
}

func TestServiceKeyNormalizes(t *testing.T) {
	e := newTestEngine(t, serviceFiles)
	refreshOK(t, e)
	svc := NewService(e, 1<<20)
	defer svc.Close()
	first, _ := serviceQuery(t, svc, QueryOptions{Text: "heron river"})
	for _, o := range []QueryOptions{
		{Text: "  heron \t river\n"},             // whitespace folds
		{Text: "heron river", K: 10, PerFile: 1}, // the defaults spelled out
		{Text: "heron river", Mode: ModeBM25},    // the mode a BM25-only index resolves to
	} {
		got, cached := serviceQuery(t, svc, o)
		if !cached {
			t.Errorf("%+v: not served from the entry of %q", o, first.Results[0].Text)
		}
		if d := cmp.Diff(first, got, ignoreTook); d != "" {
			t.Errorf("%+v (-first +got):\n%s", o, d)
		}
	}
	for _, o := range []QueryOptions{
		{Text: "river heron"}, // word order is the caller's business
		{Text: "Heron River"}, // the text is hashed as given
		{Text: "heron river", K: 3},
		{Text: "heron river", PerFile: 2},
		{Text: "heron river", PathGlob: "*.md"},
		{Text: "heron river", Explain: true},
	} {
		if _, cached := serviceQuery(t, svc, o); cached {
			t.Errorf("%+v: served from another query's entry", o)
		}
		if _, cached := serviceQuery(t, svc, o); !cached {
			t.Errorf("%+v: second identical query not cached", o)
		}
	}
	// An error is returned, never cached.
	entries := svc.lru.Len()
	for range 2 {
		if _, _, err := svc.Query(context.Background(), QueryOptions{Text: "heron", Mode: ModeVector}); !errors.Is(err, ErrUsage) {
			t.Errorf("vector mode on a BM25-only index: err = %v, want ErrUsage", err)
		}
	}
	if n := svc.lru.Len(); n != entries {
		t.Errorf("failed queries changed the LRU from %d to %d entries", entries, n)
	}
}

func TestServiceResultsAreTheCallers(t *testing.T) {
	e := newTestEngine(t, serviceFiles)
	refreshOK(t, e)
	svc := NewService(e, 1<<20)
	defer svc.Close()
	o := QueryOptions{Text: "heron", K: 3}
	miss, _ := serviceQuery(t, svc, o)
	hit, cached := serviceQuery(t, svc, o)
	if !cached {
		t.Fatal("second identical query not cached")
	}
	// Scribble on both answers: the one the miss returned and the one
	// served from the LRU.
	for _, r := range []*QueryResult{miss, hit} {
		for i := range r.Results {
			r.Results[i].Path = "scribbled"
			*r.Results[i].Scores.BM25 = -1
			*r.Results[i].Scores.BM25Rank = -1
		}
		r.Results = r.Results[:1]
	}
	got, cached := serviceQuery(t, svc, o)
	if !cached {
		t.Fatal("third identical query not cached")
	}
	fresh, err := e.Query(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(fresh, got, ignoreTook); d != "" {
		t.Errorf("a caller's edits reached the cache (-want +got):\n%s", d)
	}
}

func TestServiceSeesRefreshByAnotherEngine(t *testing.T) {
	e := newTestEngine(t, serviceFiles)
	first := refreshOK(t, e)
	svc := NewService(e, 1<<20)
	defer svc.Close()
	o := QueryOptions{Text: "kingfisher heron", K: 3}
	before, _ := serviceQuery(t, svc, o)
	if _, cached := serviceQuery(t, svc, o); !cached {
		t.Fatal("second identical query not cached")
	}
	if err := os.WriteFile(filepath.Join(e.Layout.Root, "kingfisher.md"),
		[]byte("# Kingfisher\n\nThe kingfisher dives; the kingfisher and the heron share the kingfisher pond.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	second := refreshOK(t, engineTwin(t, e))
	if second.Generation == first.Generation {
		t.Fatalf("the edit did not commit a new generation (%s)", second.Generation)
	}
	after, cached := serviceQuery(t, svc, o)
	if cached {
		t.Error("query after another engine's commit was served from the cache")
	}
	if after.Generation != second.Generation || after.Fingerprint != second.Fingerprint {
		t.Errorf("answer from generation %s (%.8s), want %s (%.8s)", after.Generation, after.Fingerprint, second.Generation, second.Fingerprint)
	}
	if got := paths(after); len(got) == 0 || got[0] != "kingfisher.md" {
		t.Errorf("after the commit: %v, want kingfisher.md first (before: %v)", got, paths(before))
	}
	want, err := e.Query(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, after, ignoreTook); d != "" {
		t.Errorf("(-Engine.Query +service):\n%s", d)
	}
}

// A reset followed by a refresh of the same files commits the same
// fingerprint again, under a new generation name (names never repeat); the
// service must notice.
func TestServiceSeesResetAndRecommit(t *testing.T) {
	e := newTestEngine(t, serviceFiles)
	first := refreshOK(t, e)
	svc := NewService(e, 1<<20)
	defer svc.Close()
	o := QueryOptions{Text: "heron"}
	serviceQuery(t, svc, o)
	if _, err := engineTwin(t, e).Reset(context.Background(), 0, "test"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Query(context.Background(), o); !errors.Is(err, ErrNoIndex) {
		t.Fatalf("query after reset: err = %v, want ErrNoIndex", err)
	}
	refreshOK(t, engineTwin(t, e))
	serviceQuery(t, svc, o)
	if _, cached := serviceQuery(t, svc, o); !cached {
		t.Fatal("second identical query not cached")
	}
	if _, err := engineTwin(t, e).Reset(context.Background(), 0, "test"); err != nil {
		t.Fatal(err)
	}
	second := refreshOK(t, engineTwin(t, e)) // no query in between
	if second.Generation == first.Generation || second.Fingerprint != first.Fingerprint {
		t.Fatalf("recommit is %s/%.8s after %s/%.8s: want a new name for the same fingerprint", second.Generation,
			second.Fingerprint, first.Generation, first.Fingerprint)
	}
	if _, cached := serviceQuery(t, svc, o); cached {
		t.Error("query after reset and refresh was served from the cache")
	}
}

func TestServiceNoIndexAndClose(t *testing.T) {
	e := newTestEngine(t, serviceFiles)
	svc := NewService(e, 1<<20)
	if _, _, err := svc.Query(context.Background(), QueryOptions{Text: "heron"}); !errors.Is(err, ErrNoIndex) {
		t.Fatalf("before any refresh: err = %v, want ErrNoIndex", err)
	}
	refreshOK(t, e)
	if r, _ := serviceQuery(t, svc, QueryOptions{Text: "heron"}); len(r.Results) == 0 {
		t.Fatal("no results after refresh")
	}
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Query(context.Background(), QueryOptions{Text: "heron"}); !errors.Is(err, ErrServiceClosed) {
		t.Fatalf("after Close: err = %v, want ErrServiceClosed", err)
	}
}

// Queries run from many goroutines while another engine commits new
// generations: none fails, and every answer is the one its generation
// holds (the version written before that generation's refresh).
func TestServiceConcurrentQueriesDuringRefreshes(t *testing.T) {
	e := newTestEngine(t, serviceFiles)
	write := func(v int) {
		t.Helper()
		content := fmt.Sprintf("# Zebra\n\nzebra crossing version%d\n", v)
		if err := os.WriteFile(filepath.Join(e.Layout.Root, "zebra.md"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(0)
	version := map[string]int{refreshOK(t, e).Generation: 0}
	// Half the workers share a service that caches nothing, so searches
	// are in flight on the old generation when a new one is installed.
	svcs := []*Service{NewService(e, 1<<20), NewService(e, 0)}
	for _, svc := range svcs {
		defer svc.Close()
	}

	type seen struct {
		gen, text string
		cached    bool
	}
	const workers, rounds = 4, 6
	var wg sync.WaitGroup
	stop := make(chan struct{})
	got := make([][]seen, workers)
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				o := QueryOptions{Text: "zebra crossing", K: 1 + i%3}
				r, cached, err := svcs[w%2].Query(context.Background(), o)
				if err != nil {
					errs <- err
					return
				}
				if len(r.Results) == 0 {
					errs <- fmt.Errorf("no results from generation %s", r.Generation)
					return
				}
				got[w] = append(got[w], seen{r.Generation, r.Results[0].Text, cached})
			}
		})
	}
	twin := engineTwin(t, e)
	for v := 1; v <= rounds; v++ {
		write(v)
		version[refreshOK(t, twin).Generation] = v
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("query during refreshes: %v", err)
	}
	total, hits := 0, 0
	for _, ss := range got {
		for _, s := range ss {
			v, ok := version[s.gen]
			if !ok {
				t.Fatalf("answer from generation %s, never committed (committed: %v)", s.gen, version)
			}
			if want := fmt.Sprintf("version%d", v); !strings.Contains(s.text, want) {
				t.Fatalf("generation %s answered %q, want text with %s", s.gen, s.text, want)
			}
			total++
			if s.cached {
				hits++
			}
		}
	}
	t.Logf("%d queries, %d cached, across %d generations", total, hits, len(version))
	for _, svc := range svcs {
		last, _ := serviceQuery(t, svc, QueryOptions{Text: "zebra crossing"})
		if version[last.Generation] != rounds {
			t.Errorf("after the last refresh: generation %s (version %d), want version %d", last.Generation, version[last.Generation], rounds)
		}
	}
}
