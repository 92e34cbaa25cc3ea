package local

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/rank"
)

// TestBodyFieldMatchesTextField requires the body field to analyze to
// what bleve's own text field gives for the same bytes and analyzer: the
// same length and the same terms with the same counts (and no locations),
// in every language's chain, on prose, code and edge cases.
func TestBodyFieldMatchesTextField(t *testing.T) {
	texts := []string{
		"", " ", "the", "The water, the water and the river's water.",
		"func parseHTTPRequest(ctx context.Context) error { return fooBar_baz(x) } // HTTPServer2Go",
		"Die Kinder spielen jeden Nachmittag im Garten hinter dem alten Haus. Das Wasser ist kalt.",
		"東京都の天気は晴れです。 ภาษาไทยง่ายนิดเดียว Привет, мир! مرحبا بالعالم",
		strings.Repeat("engine signal harbor copper ", 200) + "d41d8cd98f00b204e9800998ecf8427e" + strings.Repeat("x", 80),
	}
	r := rand.New(rand.NewPCG(9, 9))
	for range 40 {
		var sb strings.Builder
		for range r.IntN(400) {
			sb.WriteString(pruneWords[int(float64(len(pruneWords))*r.Float64()*r.Float64())])
			sb.WriteString([]string{" ", ", ", ". ", "\n", "_", "-"}[r.IntN(6)])
		}
		texts = append(texts, sb.String())
	}
	langs := append([]string{""}, analyze.Languages()...)
	for _, lang := range langs {
		for i, text := range texts {
			c := &backend.Chunk{Title: "Title " + lang, Section: "Section", Text: text, Lang: lang}
			got := newBodyField(c)
			want := document.NewTextFieldCustom(fieldBody, nil, []byte(c.Body()), index.IndexField, analyze.ForLanguage(lang))
			if string(got.Value()) != string(want.Value()) {
				t.Fatalf("%s text %d: body %q, want %q", lang, i, got.Value(), want.Value())
			}
			got.Analyze()
			want.Analyze()
			if got.AnalyzedLength() != want.AnalyzedLength() {
				t.Fatalf("%s text %d: length %d, want %d", lang, i, got.AnalyzedLength(), want.AnalyzedLength())
			}
			if g, w := freqTable(got.AnalyzedTokenFrequencies()), freqTable(want.AnalyzedTokenFrequencies()); !reflect.DeepEqual(g, w) {
				t.Fatalf("%s text %d: frequencies\n%v\nwant\n%v", lang, i, g, w)
			}
		}
	}
}

// freqTable is a comparable form of token frequencies.
func freqTable(tfs index.TokenFrequencies) map[string]string {
	out := make(map[string]string, len(tfs))
	for k, tf := range tfs {
		out[k] = fmt.Sprintf("%s×%d locs %d", tf.Term, tf.Frequency(), len(tf.Locations))
	}
	return out
}

// TestTermFrequenciesMatchBleve holds termFrequencies to bleve's
// analysis.TokenFrequency on streams with many repeats and none.
func TestTermFrequenciesMatchBleve(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for n := range 300 {
		var ts analysis.TokenStream
		for i := range n {
			ts = append(ts, &analysis.Token{Term: []byte(fmt.Sprint(r.IntN(1 + i/2))), Position: i + 1})
		}
		got, want := freqTable(termFrequencies(ts)), freqTable(analysis.TokenFrequency(ts, nil, index.IndexField))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d tokens:\n%v\nwant\n%v", n, got, want)
		}
	}
}

// TestSplitApplyIndexesAlike builds one generation with a part cut into
// concurrent batches (four cores) and one applied whole (one core), then a
// second generation of each with deletes: the same chunk lengths, term
// dictionaries and BM25 lists.
func TestSplitApplyIndexesAlike(t *testing.T) {
	if got := len(splitDocs(make([]*backend.Chunk, 1024), 0)); got != min(runtime.GOMAXPROCS(0), 1024/minSubBatch) {
		t.Fatalf("1,024 chunks cut into %d batches on %d cores", got, runtime.GOMAXPROCS(0))
	}
	if got := len(splitDocs(make([]*backend.Chunk, 1024), 1)); got != 1 {
		t.Fatalf("a part with deletes cut into %d batches", got)
	}
	ctx := context.Background()
	type built struct {
		lists map[string][]rank.Hit
		dict  map[string]uint64
		lens  []int
	}
	build := func(procs int) built {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		r := rand.New(rand.NewPCG(11, 25))
		dir := t.TempDir()
		st := Storage{Dir: dir, GenDir: func(gen string) string { return filepath.Join(dir, gen) }}
		c := pruneCorpus{}
		first := c.addFiles(r, 0, 200, true)
		buildGen(t, st, "", "g1", c, nil, first, true)
		var deletes []string
		for id, ch := range c {
			if strings.HasSuffix(ch.Path, "3.md") {
				deletes = append(deletes, id)
				delete(c, id)
			}
		}
		sc := buildGen(t, st, "g1", "g2", c, deletes, c.addFiles(r, 200, 60, true), true)
		b := built{lists: map[string][]rank.Hit{}, dict: map[string]uint64{}}
		for _, ch := range first {
			b.lens = append(b.lens, ch.Tokens)
		}
		state, err := st.Open(sc)
		if err != nil {
			t.Fatal(err)
		}
		defer state.Close()
		ls := state.(*State)
		// Document frequencies as BM25 reads them (deleted chunks left
		// out); a dictionary's own counts depend on what has been merged.
		rd, err := openReader(ls.idx)
		if err != nil {
			t.Fatal(err)
		}
		fd, err := rd.FieldDict(fieldBody)
		if err != nil {
			t.Fatal(err)
		}
		var terms []string
		for e, err := fd.Next(); e != nil || err != nil; e, err = fd.Next() {
			if err != nil {
				t.Fatal(err)
			}
			terms = append(terms, e.Term)
		}
		fd.Close()
		for _, term := range terms {
			p, err := openPostings(ctx, rd, fieldBody, term, false, "postings of")
			if err != nil {
				t.Fatal(err)
			}
			if n := p.count(); n > 0 {
				b.dict[term] = n
			}
			p.close()
		}
		rd.Close()
		for _, q := range []string{"water", "people system", "river stone light garden", "Kinder Wasser", "quartz violet"} {
			l, err := ls.Query(ctx, backend.Query{Text: q, Mode: rank.ModeBM25, K: 20, PerFile: 3, Want: 60, K1: 0.9, B: 0.4})
			if err != nil {
				t.Fatal(err)
			}
			hits, _, err := l.Lexical(ctx)
			l.Close()
			if err != nil {
				t.Fatal(err)
			}
			b.lists[q] = hits
		}
		return b
	}
	split, whole := build(4), build(1)
	if !reflect.DeepEqual(split.lens, whole.lens) {
		t.Fatal("analyzed lengths differ")
	}
	if len(split.dict) == 0 || !reflect.DeepEqual(split.dict, whole.dict) {
		t.Fatalf("term dictionaries differ: %d and %d terms", len(split.dict), len(whole.dict))
	}
	for q, hits := range whole.lists {
		if len(hits) == 0 || !reflect.DeepEqual(split.lists[q], hits) {
			t.Fatalf("%q: split %v\nwhole %v", q, split.lists[q], hits)
		}
	}
}
