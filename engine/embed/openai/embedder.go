package openai

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/internal/secreturl"
)

// Provider is the provider name in the embedder's identity.
const Provider = "openai"

// Embedder embeds texts through an OpenAI-compatible embeddings API. It is
// safe for concurrent use.
type Embedder struct {
	cfg      Config
	client   *goopenai.Client
	sendDims bool
	// dims is the vector size: the configured one, else 0 until learned
	// from the first reply or assumed from an index (AssumeDims).
	dims atomic.Int64

	// Seams for tests; New sets the real ones.
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func(ceiling time.Duration) time.Duration
	now    func() time.Time
}

var _ embed.Embedder = (*Embedder)(nil)

// New validates cfg (zero fields take the defaults) and returns an
// Embedder. It makes no request.
func New(cfg Config) (*Embedder, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cc := goopenai.DefaultConfig(cfg.APIKey)
	cc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	cc.HTTPClient = &recordingDoer{client: &http.Client{Transport: newTransport(cfg.Concurrency), CheckRedirect: secreturl.CheckRedirect}}
	e := &Embedder{
		cfg:      cfg,
		client:   goopenai.NewClientWithConfig(cc),
		sendDims: acceptsDimensions(cfg.Model) && cfg.Dimensions != knownDims(cfg.Model),
		sleep:    sleepCtx,
		jitter:   fullJitter,
		now:      time.Now,
	}
	e.dims.Store(int64(cfg.Dimensions))
	return e, nil
}

// newTransport is the default transport, keeping enough idle connections
// for every request in flight to reuse one.
func newTransport(concurrency int) http.RoundTripper {
	def, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	tr := def.Clone()
	tr.MaxIdleConnsPerHost = max(concurrency, tr.MaxIdleConnsPerHost)
	return tr
}

// Identity is {Provider: "openai", Model: cfg.Model, Dims: the vector
// size}. Dims is 0 while the size is still to be learned. A per-input
// budget other than DefaultMaxInputTokens (the cap every input had before
// budgets existed) shapes the vectors of long texts, so it is part of the
// model's name there: "nomic-embed-text@max-tokens=512".
func (e *Embedder) Identity() embed.Identity {
	model := e.cfg.Model
	if c := e.inputCap(); c != DefaultMaxInputTokens {
		model += "@max-tokens=" + strconv.Itoa(c)
	}
	return embed.Identity{Provider: Provider, Model: model, Dims: int(e.dims.Load())}
}

// KnowsDims reports whether the vector size is known: configured, learned
// from a reply, or assumed.
func (e *Embedder) KnowsDims() bool { return e.dims.Load() > 0 }

// AssumeDims takes n as the vector size when none is known yet: the size
// an index recorded for this model. A reply of another size is then an
// error that says the model changed.
func (e *Embedder) AssumeDims(n int) {
	if n > 0 {
		e.dims.CompareAndSwap(0, int64(n))
	}
}

// ProbeDims learns the vector size with one request, replacing a size
// learned or assumed before (a rebuild after the model changed); a
// configured size is kept and no request is made.
func (e *Embedder) ProbeDims(ctx context.Context) error {
	if e.cfg.Dimensions > 0 {
		return nil
	}
	before := e.dims.Swap(0) // the probe's reply sets it
	if _, err := e.Embed(ctx, []string{"autorag dimension probe"}); err != nil {
		e.dims.CompareAndSwap(0, before)
		return err
	}
	return nil
}

//semguard:begin openai-embedder
// Everything Embed reaches shapes the vectors an index stores (how a long
// text is split, how its pieces' vectors are averaged, what is sent), so
// it is index semantics, although queries call it too.

// Embed returns one unit-length vector per text, in order. Texts over the
// per-input budget are split and their pieces' vectors averaged (see the
// package doc). It fails as a whole: on any error, including an empty text,
// no vector is returned. When ctx is done it stops every request and
// returns an error wrapping ctx.Err().
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	for i, t := range texts {
		if t == "" {
			return nil, fmt.Errorf("openai embedder: text %d is empty", i)
		}
	}
	p := e.split(texts)
	if p.split > 0 {
		embed.ObserverFrom(ctx).Split(p.split)
	}
	vecs := make([][]float32, len(p.inputs))
	err := e.run(ctx, e.plan(p.inputs), len(p.inputs), func(ctx context.Context, s span) error {
		got, err := e.embedBatch(ctx, p.inputs[s.start:s.end])
		if err != nil {
			return fmt.Errorf("inputs %d-%d: %w", s.start, s.end-1, err)
		}
		copy(vecs[s.start:s.end], got)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("openai embedder: %w", err)
	}
	return p.join(len(texts), vecs), nil
}

//semguard:end openai-embedder

// run calls do for every span with at most Concurrency calls at once. The
// first error cancels the rest and is returned; if ctx itself is done,
// ctx.Err() is returned instead.
func (e *Embedder) run(ctx context.Context, spans []span, total int, do func(context.Context, span) error) error {
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		first    error
		done     int
		inFlight int
		wg       sync.WaitGroup
	)
	obs := embed.ObserverFrom(ctx)
	next := make(chan span)
	for range min(e.cfg.Concurrency, len(spans)) {
		wg.Go(func() {
			for s := range next {
				mu.Lock()
				inFlight++
				obs.Requests(inFlight, done, total)
				mu.Unlock()
				err := do(gctx, s)
				mu.Lock()
				inFlight--
				if err != nil && first == nil {
					first = err
					cancel()
				} else if err == nil && first == nil {
					done += s.end - s.start
					if e.cfg.Progress != nil {
						e.cfg.Progress(done, total)
					}
				}
				obs.Requests(inFlight, done, total)
				mu.Unlock()
			}
		})
	}
feed:
	for _, s := range spans {
		select {
		case next <- s:
		case <-gctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return first
}

// embedBatch embeds one request's inputs, retrying as the package doc
// describes, and returns checked, normalized vectors.
func (e *Embedder) embedBatch(ctx context.Context, inputs []string) ([][]float32, error) {
	for attempt := 1; ; attempt++ {
		data, err := e.attempt(ctx, inputs)
		if err == nil {
			return e.checkReply(data, len(inputs))
		}
		var ae *attemptError
		if !errors.As(err, &ae) || !ae.retry {
			return nil, err
		}
		if attempt >= e.cfg.MaxAttempts {
			return nil, fmt.Errorf("gave up after %d attempts (try again later, or lower %s): %w", attempt, EnvConcurrency, err)
		}
		wait := e.delay(attempt, ae)
		embed.ObserverFrom(ctx).Retrying(wait, fmt.Sprintf("%s (attempt %d of %d)", ae.short(), attempt, e.cfg.MaxAttempts))
		if err := e.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// attempt makes one request under the per-request timeout.
func (e *Embedder) attempt(ctx context.Context, inputs []string) ([]goopenai.Embedding, error) {
	actx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	x := &exchange{}
	req := goopenai.EmbeddingRequest{
		Input:          inputs,
		Model:          goopenai.EmbeddingModel(e.cfg.Model),
		EncodingFormat: goopenai.EmbeddingEncodingFormatFloat,
	}
	if e.sendDims {
		req.Dimensions = e.cfg.Dimensions
	}
	resp, err := e.client.CreateEmbeddings(context.WithValue(actx, exchangeKey{}, x), req)
	if err != nil {
		return nil, e.classify(ctx, actx, x, err)
	}
	return resp.Data, nil
}

// checkReply maps a reply's embeddings to inputs by their index and
// normalizes them, rejecting any reply that is not exactly one finite,
// non-zero vector of the configured size per input.
func (e *Embedder) checkReply(data []goopenai.Embedding, n int) ([][]float32, error) {
	if len(data) != n {
		return nil, fmt.Errorf("invalid reply: %d embeddings for %d inputs", len(data), n)
	}
	out := make([][]float32, n)
	want, err := e.expectDims(data)
	if err != nil {
		return nil, err
	}
	for _, d := range data {
		if d.Index < 0 || d.Index >= n {
			return nil, fmt.Errorf("invalid reply: index %d out of range for %d inputs", d.Index, n)
		}
		if out[d.Index] != nil {
			return nil, fmt.Errorf("invalid reply: index %d appears more than once", d.Index)
		}
		v, err := normalize(d.Embedding, want)
		if err != nil {
			return nil, fmt.Errorf("invalid reply: embedding %d: %w", d.Index, err)
		}
		out[d.Index] = v
	}
	return out, nil
}

// expectDims is the size every vector of a reply must have. Without a
// configured size the first reply's first vector sets it; once it is
// known (configured, learned or assumed from an index) a reply of another
// size is an error naming what to do.
func (e *Embedder) expectDims(data []goopenai.Embedding) (int, error) {
	if len(data) == 0 {
		return int(e.dims.Load()), nil
	}
	got := len(data[0].Embedding)
	if got > 0 && e.dims.CompareAndSwap(0, int64(got)) {
		return got, nil
	}
	want := int(e.dims.Load())
	if got == want || e.cfg.Dimensions > 0 {
		return want, nil // normalize reports a configured size's mismatch
	}
	return 0, &dimsChangedError{model: e.cfg.Model, got: got, want: want}
}

// dimsChangedError is a provider answering with another vector size than
// the one learned for its model: the model behind the name changed.
type dimsChangedError struct {
	model     string
	got, want int
}

func (d *dimsChangedError) Error() string {
	return fmt.Sprintf("model %q now returns %d-dimensional vectors, but the index holds %d-dimensional ones: "+
		"the model behind the name changed; run `autorag index rebuild` to re-embed everything with it "+
		"(or set %s=%d and serve the old model)", d.model, d.got, d.want, EnvDimensions, d.want)
}

// normalize returns v scaled to unit length after checking its size and
// values.
func normalize(v []float32, dims int) ([]float32, error) {
	if len(v) != dims {
		return nil, fmt.Errorf("%d dimensions, want %d (set %s to the size the model returns)", len(v), dims, EnvDimensions)
	}
	var sum float64
	for i, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("value %d is not finite (%v)", i, x)
		}
		sum += f * f
	}
	if sum == 0 {
		return nil, errors.New("zero vector")
	}
	norm := math.Sqrt(sum)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / norm)
	}
	return out, nil
}
