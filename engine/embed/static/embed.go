package static

import (
	"context"
	_ "embed" // the model's table
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/static/internal/tab"
	"github.com/autorag/autorag/engine/embed/wordpiece"
)

//go:generate go run ./internal/gen -src=${AUTORAG_POTION_SRC} -out=potion.tab

//semguard:begin static-embedder

//go:embed potion.tab
var table string

// Model names the vector space: the model, its revision and this
// package's reading of it. Bump the suffix whenever the table, the
// tokenizer or the pooling changes: it is part of every embedding-cache
// key and of the index fingerprint.
const Model = "potion-base-8M@bf8b0566-q8-v4"

// Dims is the length of every vector.
const Dims = 256

// parallelMin is the batch size from which Embed spreads texts over
// goroutines.
const parallelMin = 8

// Embedder is the built-in static embedder. It is immutable and safe for
// concurrent use.
type Embedder struct {
	tab     *tab.Table
	tok     *wordpiece.Tokenizer
	model   string
	unkText string // the unknown token, written in a text
	plain   bool   // model2vec's vectors: no fallback vectors
}

var _ embed.Embedder = (*Embedder)(nil)

// New returns the embedder. It reads only the table's headers: the table
// itself is the binary's read-only data.
func New() *Embedder {
	e, err := open(table)
	if err != nil {
		panic(fmt.Sprintf("static embedder: built-in table: %v", err))
	}
	return e
}

func open(data string) (*Embedder, error) {
	t, err := tab.Open(data)
	if err != nil {
		return nil, err
	}
	if t.Dims() != Dims {
		return nil, fmt.Errorf("table has %d dims, want %d", t.Dims(), Dims)
	}
	v, err := wordpiece.OpenVocab(t.Vocab())
	if err != nil {
		return nil, err
	}
	if v.Len() != t.Rows() {
		return nil, fmt.Errorf("table has %d rows for %d tokens", t.Rows(), v.Len())
	}
	tok, err := wordpiece.New(v, wordpiece.BERT())
	if err != nil {
		return nil, err
	}
	return &Embedder{tab: t, tok: tok, model: Model, unkText: v.Token(tok.Unknown())}, nil
}

// NewVariant returns the embedder ("") or, for evaluation, "plain":
// model2vec's own vectors, without fallback vectors for spelled-out words
// (fallback.go). A variant reports Model+"+"+name as its model.
func NewVariant(name string) (*Embedder, error) {
	e := New()
	switch name {
	case "":
	case "plain":
		e.plain, e.model = true, Model+"+plain"
	default:
		return nil, fmt.Errorf("unknown static embedder variant %q: want \"\" or plain", name)
	}
	return e, nil
}

// Identity implements embed.Embedder.
func (e *Embedder) Identity() embed.Identity {
	return embed.Identity{Provider: "local", Model: e.model, Dims: Dims}
}

// Embed implements embed.Embedder: one unit vector per text, or the zero
// vector for a text without a known token. Large batches are spread over
// GOMAXPROCS goroutines.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*Dims)
	for i := range out {
		out[i] = flat[i*Dims : (i+1)*Dims : (i+1)*Dims]
	}
	workers := min(runtime.GOMAXPROCS(0), len(texts)/(parallelMin/2))
	if len(texts) < parallelMin || workers < 2 {
		s := newScratch()
		for i, t := range texts {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			e.embed(s, t, out[i])
		}
		return out, nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := newScratch()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(texts) || ctx.Err() != nil {
					return
				}
				e.embed(s, texts[i], out[i])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// scratch is one goroutine's working memory.
type scratch struct {
	ids   []int
	words []wordpiece.Word
	norm  []byte
	acc   [Dims]float32
	grams [Dims]int32
}

// newScratch sizes the buffers for a short query; a chunk grows them once.
func newScratch() *scratch {
	return &scratch{ids: make([]int, 0, 64), words: make([]wordpiece.Word, 0, 32), norm: make([]byte, 0, 256)}
}

// embed writes text's unit vector (or zeros) into dst: the sum of its
// tokens' rows, a spelled-out word's fallback vector in place of its
// pieces' rows (fallback.go), unknown tokens dropped.
func (e *Embedder) embed(s *scratch, text string, dst []float32) {
	s.ids, s.words, s.norm = e.tok.AppendWords(s.ids[:0], s.words[:0], s.norm[:0], text)
	s.acc = [Dims]float32{}
	unk := e.tok.Unknown()
	for _, w := range s.words {
		ids, word := s.ids[w.First:w.Last], s.norm[w.From:w.To]
		if !e.plain && spelledOut(word, len(ids), len(ids) == 1 && ids[0] == unk && string(word) != e.unkText) {
			addFallback(&s.acc, &s.grams, word)
			continue
		}
		for _, id := range ids {
			if id != unk {
				e.addRow(&s.acc, id)
			}
		}
	}
	var n float64
	for _, x := range s.acc {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		clear(dst)
		return
	}
	inv := float32(1 / sqrt(n))
	for d := range dst[:Dims] {
		dst[d] = s.acc[d] * inv
	}
}

// addRow adds token id's row to acc.
func (e *Embedder) addRow(acc *[Dims]float32, id int) {
	scale, q := e.tab.Row(id)
	q = q[:Dims]
	for d := range acc {
		acc[d] += scale * float32(int8(q[d]))
	}
}

func sqrt(x float64) float64 { return math.Sqrt(x) }

//semguard:end static-embedder
