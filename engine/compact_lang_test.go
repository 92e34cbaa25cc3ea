package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// langWords are the English files' vocabulary; file i uses a window of it
// that depends on i, so that terms have different document frequencies.
var langWords = strings.Fields("heron river stone light garden window engine signal harbor copper meadow lantern violet quartz willow falcon")

// langGerman is the one German file: a language of one chunk, which a
// merged segment stores as a one-hit posting, sorting before English.
const langGerman = "# Der Fluss\n\nDie Kinder spielen jeden Nachmittag im Garten hinter dem alten Haus, und das Wasser des Flusses ist im Winter sehr kalt und klar.\n"

// TestCompactKeepsMultilingualAnswers is the property that compaction
// never changes answers, on an index analyzed per language (one German
// file among English ones) with replaced and deleted chunks in several
// segments: every query answers the same chunks, in the same order, with
// the same positive scores, before and after Engine.Compact. The chunk
// count of each language came from bleve's dictionary, which counted the
// deleted chunks before the merge and one English chunk after it
// (negative idfs: SciFact bm25 nDCG@10 0.7057 -> 0.0324).
func TestCompactKeepsMultilingualAnswers(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{"de.md": langGerman}
	for i := range 400 {
		files[fmt.Sprintf("d%03d.md", i)] = langDoc(i, "")
	}
	e := newTestEngine(t, files)
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 400; i += 7 {
		p := filepath.Join(e.Layout.Root, fmt.Sprintf("d%03d.md", i))
		if i%2 == 0 {
			writeFileT(t, p, langDoc(i, " The heron came back at dusk."))
		} else if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Refresh(ctx, RefreshOptions{}); err != nil {
		t.Fatal(err)
	}
	queries := []string{"heron", "river stone light", "violet quartz lantern", "heron dusk", "garden window", "Kinder Wasser Garten"}
	answers := func(when string) [][]Result {
		var out [][]Result
		for _, text := range queries {
			res, err := e.Query(ctx, QueryOptions{Text: text, K: 20, Mode: ModeBM25})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Results) == 0 {
				t.Fatalf("%s compaction: %q found nothing", when, text)
			}
			for _, r := range res.Results {
				if r.Score <= 0 {
					t.Fatalf("%s compaction: %q: %s scores %v", when, text, r.Path, r.Score)
				}
			}
			out = append(out, res.Results)
		}
		return out
	}
	before := answers("before")
	res, err := e.Compact(ctx, CompactOptions{Force: true})
	if err != nil || res.Outcome != OutcomeCompacted || res.DeletedBefore == 0 || res.SegmentsAfter != 1 {
		t.Fatalf("compact: %+v %v; want deleted chunks merged into one segment", res, err)
	}
	if diff := cmp.Diff(before, answers("after")); diff != "" {
		t.Errorf("answers changed by compaction of %+v (-before +after):\n%s", res, diff)
	}
}

// langDoc is English file i, with more appended.
func langDoc(i int, more string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# Note %d\n\n", i)
	for j := range 6 + i%9 {
		sb.WriteString(langWords[(i*3+j*j)%len(langWords)] + " ")
	}
	return sb.String() + "are seen here." + more + "\n"
}
