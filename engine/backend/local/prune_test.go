package local

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/fingerprint"
)

// pruneWords are the random chunks' vocabulary, the first ones the most
// common; pruneGerman are sentences of the German chunks.
var (
	pruneWords  = strings.Fields("water people system river stone light garden window engine signal harbor copper meadow lantern violet quartz")
	pruneGerman = []string{
		"Die Kinder spielen jeden Nachmittag im Garten hinter dem alten Haus.",
		"Das Wasser des Flusses ist im Winter sehr kalt und klar.",
		"Die Leute in der Stadt lesen am Morgen die Zeitung auf der Bank.",
	}
)

// pruneCorpus is the live chunks of a random generation, by chunk ID.
type pruneCorpus map[string]*backend.Chunk

// addFiles adds files files named f<from+i> under a/ and b/, of 1-12
// chunks each; with german, every third file is German.
func (c pruneCorpus) addFiles(r *rand.Rand, from, files int, german bool) []*backend.Chunk {
	var out []*backend.Chunk
	for i := from; i < from+files; i++ {
		path := fmt.Sprintf("%s/f%04d.md", []string{"a", "b"}[i%2], i)
		for ord := range 1 + r.IntN(12) {
			ch := &backend.Chunk{Path: path, Ord: ord, Title: path}
			var sb strings.Builder
			if german && i%3 == 0 {
				ch.Lang = "de"
				for range 3 + r.IntN(4) {
					sb.WriteString(pruneGerman[r.IntN(len(pruneGerman))] + " ")
				}
			} else {
				if german { // a multilingual generation names every language
					ch.Lang = analyze.English
				}
				for range 20 + r.IntN(80) {
					sb.WriteString(pruneWords[int(float64(len(pruneWords))*r.Float64()*r.Float64())] + " ")
				}
			}
			ch.Text = sb.String()
			c[record.ChunkID(path, ord)] = ch
			out = append(out, ch)
		}
	}
	return out
}

// buildGen writes generation gen from base (cloned) with the deletes and
// upserts, and returns its sidecar.
func buildGen(t *testing.T, st Storage, base, gen string, c pruneCorpus, deletes []string, upserts []*backend.Chunk, multilingual bool) *fingerprint.Sidecar {
	t.Helper()
	ctx := context.Background()
	w, err := st.Begin(ctx, base, gen)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Apply(ctx, backend.Change{Deletes: deletes, Upserts: upserts, Final: true}); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	return sidecarOf(gen, c, multilingual)
}

// TestPrunedListMatchesExhaustive builds random generations through the
// writer (one language and two; then a second generation cloned from the
// first with files deleted and added, so that bleve holds deleted
// documents and several segments) and requires MaxScore, the tiered
// scorer (its tiers kept across the queries of a generation) and the
// exhaustive scorer to return identical lists (chunks, scores, order) for
// random queries, in both modes, with per-file limits and path filters
// narrow enough to make the list refill.
func TestPrunedListMatchesExhaustive(t *testing.T) {
	for seed := range 6 {
		r := rand.New(rand.NewPCG(uint64(seed), 25))
		dir := t.TempDir()
		st := Storage{Dir: dir, GenDir: func(gen string) string { return filepath.Join(dir, gen) }}
		multi := seed%2 == 1
		files := 30 + r.IntN(60)
		if seed >= 4 { // postings long enough that a refill prunes again
			files = 300
		}
		c := pruneCorpus{}
		sc := buildGen(t, st, "", "g1", c, nil, c.addFiles(r, 0, files, multi), multi)
		compareScorers(t, r, st, sc, fmt.Sprintf("seed %d, g1", seed))
		var deletes []string
		for id, ch := range c {
			if strings.HasSuffix(ch.Path, "3.md") || strings.HasSuffix(ch.Path, "6.md") {
				deletes = append(deletes, id)
				delete(c, id)
			}
		}
		sc = buildGen(t, st, "g1", "g2", c, deletes, c.addFiles(r, files, 1+files/4, multi), multi)
		compareScorers(t, r, st, sc, fmt.Sprintf("seed %d, g2", seed))
	}
}

func compareScorers(t *testing.T, r *rand.Rand, st Storage, sc *fingerprint.Sidecar, where string) {
	t.Helper()
	ctx := context.Background()
	state, err := st.Open(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	ls := state.(*State)
	tiers := newTierCache(1) // every term's tiers, from the first use on
	tieredRuns := 0
	for q := range 60 {
		var words []string
		for range 1 + r.IntN(5) {
			words = append(words, pruneWords[r.IntN(len(pruneWords))])
		}
		if q%7 == 0 {
			words = append(words, "Kinder", "Wasser")
		}
		text := strings.Join(words, " ")
		mode, k, perFile := rank.ModeBM25, 1+r.IntN(15), 1+r.IntN(3)
		if q%5 == 3 {
			mode = rank.ModeHybrid
		}
		want := max(50, 5*k*perFile)
		var patterns []string
		switch q % 4 {
		case 1:
			patterns = []string{"a/**"}
		case 2: // a few files: refills, and the exhaustive fallback
			patterns = []string{"a/f001*"}
		}
		filter, err := backend.NewPathFilter(patterns)
		if err != nil {
			t.Fatal(err)
		}
		list := func(exhaustive bool, tiers *tierCache) []rank.Hit {
			r, err := openReader(ls.idx)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			s := &searcher{r: r, model: modelOf(sc, 0.9, 0.4), exhaustive: exhaustive, tiers: tiers}
			defer func() { tieredRuns += s.tieredRuns }()
			terms, err := s.queryTerms(ctx, ls, text)
			if err != nil {
				t.Fatal(err)
			}
			hits, err := s.bm25List(ctx, terms, filter, mode, want, k, perFile)
			if err != nil {
				t.Fatal(err)
			}
			return hits
		}
		ex, pr, ti := list(true, nil), list(false, nil), list(false, tiers)
		if len(ex) == 0 && q%7 != 0 && patterns == nil {
			t.Fatalf("%s: %q found nothing", where, text)
		}
		if !reflect.DeepEqual(ex, pr) {
			t.Fatalf("%s: %q %s k %d per-file %d %v:\nexhaustive %v\npruned     %v", where, text, mode, k, perFile, patterns, ex, pr)
		}
		if !reflect.DeepEqual(ex, ti) {
			t.Fatalf("%s: %q %s k %d per-file %d %v:\nexhaustive %v\ntiered     %v", where, text, mode, k, perFile, patterns, ex, ti)
		}
	}
	if tieredRuns == 0 {
		t.Fatalf("%s: no list came from the tiers", where)
	}
	scoped := false
	for key := range tiers.tiers {
		scoped = scoped || key.langs != allLangs
	}
	if ls.multilingual && !scoped {
		t.Fatalf("%s: no language-scoped term has tiers", where)
	}
}

// TestScorerOption opens one generation with each Storage.Scorer: the
// states' queries use the scorer asked for, and their lists are equal.
func TestScorerOption(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 25))
	dir := t.TempDir()
	st := Storage{Dir: dir, GenDir: func(gen string) string { return filepath.Join(dir, gen) }}
	c := pruneCorpus{}
	sc := buildGen(t, st, "", "g1", c, nil, c.addFiles(r, 0, 300, false), false)
	ctx := context.Background()
	lexical := func(s Scorer) []rank.Hit {
		st.Scorer = s
		state, err := st.Open(sc)
		if err != nil {
			t.Fatal(err)
		}
		defer state.Close()
		l, err := state.Query(ctx, backend.Query{Text: "water people system", Mode: rank.ModeBM25, K: 10, PerFile: 1, Want: 50, K1: 0.9, B: 0.4})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if got := l.(*lists).s.exhaustive; got != (s == ScorerExhaustive) {
			t.Fatalf("scorer %d: searcher exhaustive = %v", s, got)
		}
		hits, _, err := l.Lexical(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	ex, pr := lexical(ScorerExhaustive), lexical(ScorerPruned)
	if len(ex) == 0 || !reflect.DeepEqual(ex, pr) {
		t.Fatalf("scorers differ:\nexhaustive %v\npruned     %v", ex, pr)
	}
}

// TestTiersConcurrentQueries runs queries at once on one State with the
// default scorer, which builds the terms' tiers on their second use while
// other queries read them: every list equals the exhaustive one.
func TestTiersConcurrentQueries(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 25))
	dir := t.TempDir()
	st := Storage{Dir: dir, GenDir: func(gen string) string { return filepath.Join(dir, gen) }}
	c := pruneCorpus{}
	sc := buildGen(t, st, "", "g1", c, nil, c.addFiles(r, 0, 200, false), false)
	ctx := context.Background()
	lexical := func(state backend.State, text string) ([]rank.Hit, error) {
		l, err := state.Query(ctx, backend.Query{Text: text, Mode: rank.ModeBM25, K: 10, PerFile: 1, Want: 50, K1: 0.9, B: 0.4})
		if err != nil {
			return nil, err
		}
		defer l.Close()
		hits, _, err := l.Lexical(ctx)
		return hits, err
	}
	open := func(s Scorer) backend.State {
		st.Scorer = s
		state, err := st.Open(sc)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { state.Close() })
		return state
	}
	ex, pr := open(ScorerExhaustive), open(ScorerPruned)
	queries := []string{"water people", "water people system", "river stone water", "people"}
	want := map[string][]rank.Hit{}
	for _, q := range queries {
		hits, err := lexical(ex, q)
		if err != nil {
			t.Fatal(err)
		}
		want[q] = hits
	}
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for i := range 6 {
				q := queries[(g+i)%len(queries)]
				got, err := lexical(pr, q)
				if err == nil && !reflect.DeepEqual(got, want[q]) {
					err = fmt.Errorf("%q: got %v, want %v", q, got, want[q])
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := len(pr.(*State).tiers.tiers); n == 0 {
		t.Error("no tiers were built")
	}
}
