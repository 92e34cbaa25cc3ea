package local

import (
	"context"
	_ "embed" // the word table
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/local/internal/wordtab"
)

//go:generate go run ./internal/gen -src=${AUTORAG_GLOVE_SRC} -words=80000 -pc=eig -out=glove.tab

//semguard:begin local-embedder

//go:embed glove.tab
var table string

// Model names the vector space: the source vectors, the table version and
// the weighting. Bump the suffix whenever the table, the tokenizer or the
// weighting changes: it is part of every embedding-cache key and of the
// index fingerprint.
const Model = "glove-6b-100d-80k-q8-v1"

// Dims is the length of every vector.
const Dims = 100

// DefaultVariant is the weighting New uses (see NewVariant).
const DefaultVariant = "sif5"

// parallelMin is the batch size from which Embed spreads texts over
// goroutines.
const parallelMin = 8

// Embedder is the built-in offline embedder. It is immutable and safe for
// concurrent use.
type Embedder struct {
	tab     *wordtab.Table
	model   string
	weights [256]float32 // by rank code
	oovW    float32      // weight of a fallback vector
	pc      [Dims]float32
	usePC   bool
	oov     bool
	stem    bool
}

var _ embed.Embedder = (*Embedder)(nil)

// New returns the embedder with the default weighting. It reads only the
// table's header: the table itself is the binary's read-only data.
func New() *Embedder {
	e, err := NewVariant(DefaultVariant)
	if err != nil {
		panic(fmt.Sprintf("local embedder: built-in table: %v", err))
	}
	return e
}

// NewVariant returns an embedder with another weighting, for evaluation.
// name is a scheme ("flat"; "sif3", "sif4", "sif35", "sif5", "sif36" for
// SIF with a = 1e-3 … 3e-6; "logr10" … "logr10000" for ln(1 + rank/r0))
// followed by any of the options "+nopc" (keep the common
// component), "+nooov" (drop unknown words instead of giving them an n-gram
// vector) and "+nostem" (no suffix stripping for unknown words). Any
// variant but DefaultVariant reports Model+"+"+name as its model.
func NewVariant(name string) (*Embedder, error) {
	tab, err := wordtab.Open(table)
	if err != nil {
		return nil, err
	}
	if tab.Dims() != Dims {
		return nil, fmt.Errorf("word table has %d dims, want %d", tab.Dims(), Dims)
	}
	parts := strings.Split(name, "+")
	si := wordtab.SchemeIndex(parts[0])
	if si < 0 {
		return nil, fmt.Errorf("unknown weighting %q", parts[0])
	}
	e := &Embedder{tab: tab, model: Model, usePC: true, oov: true, stem: true}
	if name != DefaultVariant {
		e.model = Model + "+" + name
	}
	for _, opt := range parts[1:] {
		switch opt {
		case "nopc":
			e.usePC = false
		case "nooov":
			e.oov = false
		case "nostem":
			e.stem = false
		default:
			return nil, fmt.Errorf("unknown option %q in variant %q", opt, name)
		}
	}
	e.weights = wordtab.Schemes()[si].Weights()
	e.oovW = e.weights[wordtab.OOVCode()]
	tab.Component(si, e.pc[:])
	return e, nil
}

// Identity implements embed.Embedder.
func (e *Embedder) Identity() embed.Identity {
	return embed.Identity{Provider: "local", Model: e.model, Dims: Dims}
}

// Embed implements embed.Embedder: one unit vector per text. A text with no
// letter or digit gets the zero vector (cosine 0 with everything); any
// other text gets a unit vector, from its n-gram fallback if no word of it
// is known. Large batches are spread over GOMAXPROCS goroutines.
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
	acc [Dims]float32
	// words found in the table (directly, as parts, accent-folded or
	// suffix-stripped) and words given a fallback vector, for Coverage
	known, unknown int
	oov            [Dims]float32
	buf            []byte // the current token, lower case
	cuts           []int
	alt            []byte // suffix-stripped forms and n-gram frames
}

func newScratch() *scratch {
	return &scratch{buf: make([]byte, 0, 64), cuts: make([]int, 0, 8), alt: make([]byte, 0, 80)}
}

// embed writes text's unit vector (or zeros) into dst.
func (e *Embedder) embed(s *scratch, text string, dst []float32) {
	s.acc = [Dims]float32{}
	found := false
	for i := s.nextToken(text, 0); i >= 0; i = s.nextToken(text, i) {
		found = true
		e.addToken(s)
	}
	if !found {
		clear(dst)
		return
	}
	acc := &s.acc
	norm := l2(acc)
	if e.usePC {
		var dot float32
		for d := range acc {
			dot += acc[d] * e.pc[d]
		}
		var rest [Dims]float32
		for d := range acc {
			rest[d] = acc[d] - dot*e.pc[d]
		}
		// A text made only of the common direction keeps it rather than
		// collapsing to noise.
		if n := l2(&rest); n > 1e-3*norm {
			*acc, norm = rest, n
		}
	}
	if norm == 0 {
		clear(dst)
		return
	}
	inv := 1 / norm
	for d := range dst[:Dims] {
		dst[d] = acc[d] * inv
	}
}

func l2(v *[Dims]float32) float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	return float32(math.Sqrt(n))
}

// addToken adds the token in s.buf: the whole word if the table knows it,
// else each part of a split identifier, else its fallback.
func (e *Embedder) addToken(s *scratch) {
	if off, ok := e.tab.Lookup(s.buf); ok {
		e.addRecord(s, off)
		return
	}
	if len(s.cuts) == 0 {
		e.addUnknown(s, s.buf)
		return
	}
	from := 0
	for k := 0; k <= len(s.cuts); k++ {
		to := len(s.buf)
		if k < len(s.cuts) {
			to = s.cuts[k]
		}
		part := s.buf[from:to]
		from = to
		if off, ok := e.tab.Lookup(part); ok {
			e.addRecord(s, off)
		} else {
			e.addUnknown(s, part)
		}
	}
}

// addRecord adds a table word's weighted vector.
func (e *Embedder) addRecord(s *scratch, off int) {
	s.known++
	code, scale, q := e.tab.Vector(off)
	w := e.weights[code] * scale
	q = q[:Dims]
	acc := &s.acc
	for d := range acc {
		acc[d] += w * float32(int8(q[d]))
	}
}

//semguard:end local-embedder

// Coverage is the share of text's words (identifier parts counted one by
// one) that the table knows, 0 when it has none: the rest get n-gram
// fallback vectors, which match only the same spelling. A query of words
// the table does not know ("qwxz vbnm") has a vector that says nothing
// about meaning; one in a language the table does not hold says little.
func (e *Embedder) Coverage(text string) float64 {
	s := newScratch()
	var dst [Dims]float32
	e.embed(s, text, dst[:])
	if s.known+s.unknown == 0 {
		return 0
	}
	return float64(s.known) / float64(s.known+s.unknown)
}
