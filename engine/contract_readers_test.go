package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestContractReadersSeeOldOrNew queries while a refresh replaces every
// file's topic: each answer must hold the old topic only or the new one
// only, never a mix.
func TestContractReadersSeeOldOrNew(t *testing.T) {
	forBackends(t, func(t *testing.T, h *contractRoot) {
		const files = 40
		for i := range files {
			h.write(fmt.Sprintf("f%02d.md", i), fmt.Sprintf("# File %d\n\nalphaword topic number %d.\n", i, i))
		}
		h.refresh(RefreshOptions{})
		for i := range files {
			h.write(fmt.Sprintf("f%02d.md", i), fmt.Sprintf("# File %d\n\nbetaword topic number %d.\n", i, i))
		}
		var old, fresh, mixed atomic.Int64
		var firstErr atomic.Value
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					q, err := h.e.Query(h.ctx, QueryOptions{Text: "alphaword betaword", Mode: ModeBM25, K: 100})
					if err != nil {
						firstErr.CompareAndSwap(nil, err)
						return
					}
					a, b := 0, 0
					for _, r := range q.Results {
						switch {
						case strings.Contains(r.Text, "alphaword"):
							a++
						case strings.Contains(r.Text, "betaword"):
							b++
						}
					}
					switch {
					case a == files && b == 0:
						old.Add(1)
					case b == files && a == 0:
						fresh.Add(1)
					default:
						mixed.Add(1)
						t.Errorf("a reader saw %d old and %d new files", a, b)
					}
				}
			})
		}
		r := h.refresh(RefreshOptions{})
		// Readers go on until they have seen the new state (or give up).
		deadline := time.Now().Add(2 * time.Minute)
		for fresh.Load() < 3 && time.Now().Before(deadline) && firstErr.Load() == nil {
			time.Sleep(50 * time.Millisecond)
		}
		close(stop)
		wg.Wait()
		if err, _ := firstErr.Load().(error); err != nil {
			t.Fatalf("reader: %v", err)
		}
		if r.Modified != files || fresh.Load() == 0 || mixed.Load() > 0 {
			t.Fatalf("modified %d; views: %d old, %d new, %d mixed", r.Modified, old.Load(), fresh.Load(), mixed.Load())
		}
		t.Logf("views: %d old, %d new", old.Load(), fresh.Load())
	})
}

// TestContractIncrementalEqualsRebuild edits one root in steps and builds
// another from the final files at once: both answer every query with the
// same chunks. The local backend also ranks and scores them identically;
// Weaviate's BM25 statistics count overwritten objects until compaction,
// so there only the sets are compared.
func TestContractIncrementalEqualsRebuild(t *testing.T) {
	for _, b := range contractBackends() {
		t.Run(b.name, func(t *testing.T) {
			s := b.settings(t)
			inc, fresh := newContractRoot(t, s), newContractRoot(t, s)
			inc.writeCorpus()
			inc.refresh(RefreshOptions{})
			final := map[string]string{}
			for rel, content := range contractCorpus {
				final[rel] = content
			}
			final["birds/owl.md"] = "# Owl\n\nThe barn owl now sleeps in the old church tower at night.\n"
			final["notes/new.md"] = "# New\n\nA kayak drifts down the quiet river at dawn.\n"
			delete(final, "notes/garden.txt")
			final["notes/trips.md"] = final["notes/travel.md"]
			delete(final, "notes/travel.md")
			for _, rm := range []string{"notes/garden.txt", "notes/travel.md"} {
				if err := os.Remove(filepath.Join(inc.e.Layout.Root, rm)); err != nil {
					t.Fatal(err)
				}
			}
			for rel, content := range final {
				inc.write(rel, content)
				fresh.write(rel, content)
			}
			if r := inc.refresh(RefreshOptions{}); r.Outcome != OutcomeUpdated {
				t.Fatalf("incremental refresh: %s", r.Outcome)
			}
			fresh.refresh(RefreshOptions{})
			exact := b.name == BackendLocal
			for _, q := range []string{"the night", "heron fishes at dawn", "owl church", "configuration file", "river"} {
				for _, mode := range []string{ModeBM25, ModeVector, ModeHybrid} {
					a, b := inc.answer(q, mode), fresh.answer(q, mode)
					if exact && !slices.Equal(a, b) || !exact && !slices.Equal(sorted(a), sorted(b)) {
						t.Errorf("%s %q:\nincremental %v\nrebuild     %v", mode, q, a, b)
					}
				}
			}
		})
	}
}

// answer is a query's results as comparable strings: chunk, lines, text,
// and with the local backend the score.
func (h *contractRoot) answer(text, mode string) []string {
	h.t.Helper()
	q, err := h.e.Query(h.ctx, QueryOptions{Text: text, Mode: mode, K: 50})
	if err != nil {
		h.t.Fatalf("query %q: %v", text, err)
	}
	var out []string
	for _, r := range q.Results {
		s := fmt.Sprintf("%s#%d %v %q", r.Path, r.Chunk, r.Lines, r.Text)
		if h.e.Settings.Backend.Name != BackendWeaviate {
			s += fmt.Sprintf(" %.6f", r.Score)
		}
		out = append(out, s)
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func fmtScore(f *float64) string {
	if f == nil {
		return "null"
	}
	return fmt.Sprint(*f)
}
