package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/engine/chunk"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/engine/recorded"
	"github.com/autorag/autorag/engine/split"
	"github.com/autorag/autorag/fingerprint"
)

// IndexSemanticsVersion versions what the engine stores in a generation.
// Bump it whenever a change alters what an artifact holds for the same
// input; the fingerprint includes it, so the next refresh rebuilds.
const IndexSemanticsVersion = 25

// Default BM25 parameters: k1 = 0.9, b = 0.4 matched the published Lucene
// baselines on BEIR sets (FINDINGS.md); bleve's own defaults (1.2/0.75)
// scored lower there.
const (
	DefaultK1 = 0.9
	DefaultB  = 0.4
)

// Settings are the knobs of the engine. Chunk and MaxFileSize shape the
// index (they are fingerprinted); K1 and B are query-time only.
type Settings struct {
	Chunk       chunk.Options
	MaxFileSize int64
	K1, B       float64
	// Analyzer is the text analysis of prose chunks: AnalyzerAuto (the
	// default, "" too) analyzes each in its detected language,
	// AnalyzerEnglish all with the English chain. It is fingerprinted.
	Analyzer string

	// Embedder computes chunk and query vectors; nil builds a BM25-only
	// index. Its identity is fingerprinted.
	Embedder embed.Embedder
	// Recorded, when set, builds the embedder a committed index records:
	// queries and status use it, and a refresh unless EmbedderChosen (a
	// flag, the environment or the config file named Embedder). nil: a
	// query on an index built with another embedder fails (storage.go).
	Recorded       recorded.Source
	EmbedderChosen bool
	// Fusion combines BM25 and vectors in hybrid mode; the zero value
	// means DefaultFusion for the embedder. Query-time only.
	Fusion Fusion
	// EmbedCacheCap bounds the embedding cache in bytes (entries no
	// generation uses are evicted past it).
	EmbedCacheCap int64
	// Backend is where the searchable state lives (Backend, below); its id is
	// fingerprinted, its address and key are not.
	Backend Backend
	// Reranker, when set, re-scores the best RerankN results of every query (0: DefaultRerankN);
	// query-time, named in the cache key. A failing one fails the query only if RerankRequired.
	Reranker       Reranker
	RerankN        int
	RerankRequired bool
	// OCR reads the pages of scanned PDFs with tesseract (OCRCommand, else
	// tesseract on PATH). Not fingerprinted: the OCR engine and version
	// are part of the parser name of each PDF it read (mirror/ocrvariant.go).
	OCR        bool
	OCRCommand string
}

// DefaultSettings returns the built-in defaults.
func DefaultSettings() Settings {
	return Settings{
		Chunk:         chunk.Options{Size: chunk.DefaultSize, Overlap: chunk.DefaultOverlap},
		K1:            DefaultK1,
		B:             DefaultB,
		EmbedCacheCap: 1 << 30,
	}
}

// Validate reports settings that cannot work.
func (s Settings) Validate() error {
	if s.K1 < 0 || s.B < 0 || s.B > 1 {
		return fmt.Errorf("bm25 parameters out of range: k1=%g (>= 0), b=%g (0..1)", s.K1, s.B)
	}
	if s.MaxFileSize < 0 {
		return fmt.Errorf("max file size must not be negative: %d", s.MaxFileSize)
	}
	switch s.Analyzer {
	case "", AnalyzerAuto, AnalyzerEnglish:
	default:
		return fmt.Errorf("unknown analyzer %q (want %s or %s)", s.Analyzer, AnalyzerAuto, AnalyzerEnglish)
	}
	if err := s.Backend.validate(); err != nil {
		return err
	}
	if s.Fusion.Method != "" {
		return s.Fusion.Validate()
	}
	return nil
}

//semguard:begin fingerprint-settings

// fingerprinted returns the settings strings that go into the fingerprint:
// everything that shapes what an artifact stores. Parser versions are not
// among them: each file's parser name@version is part of its text hash, so
// a parser upgrade changes the fingerprint through exactly the files it
// re-parsed, and the next refresh updates only those.
func (s Settings) fingerprinted() map[string]string {
	m := map[string]string{
		"chunker":  s.Chunk.Normalize().String(),
		"analyzer": s.analyzerID(),
		"embedder": s.embedderID(),
		"maxfile":  fmt.Sprint(s.MaxFileSize),
	}
	if id := s.Backend.id(); id != "" {
		m["backend"] = id
	}
	return m
}

// Analyzers (Settings.Analyzer).
const (
	AnalyzerAuto    = "auto"
	AnalyzerEnglish = "english"
)

// multilingual reports whether prose chunks are analyzed in their own
// language.
func (s Settings) multilingual() bool { return s.Analyzer != AnalyzerEnglish }

// analyzerID is the fingerprinted name of the analysis: the chain's
// version, which a query reads back from the sidecar (backend/local/querylang.go).
func (s Settings) analyzerID() string {
	if s.multilingual() {
		return analyze.MultiVersion
	}
	return analyze.Version
}

//semguard:end fingerprint-settings

// Backend says where the searchable state of an index lives (storage.go).
// The zero value is the local backend.
type Backend struct {
	// Name is BackendLocal or BackendWeaviate; "" means the one the
	// committed index was built with (with its shards and replicas), else
	// local.
	Name string
	// URL of a Weaviate node's REST endpoint, e.g. http://127.0.0.11:18080.
	URL string
	// APIKey, when set, is sent to Weaviate as a bearer token; it never
	// appears in output or errors.
	APIKey string
	// Shards and Replicas shape a Weaviate collection; 0 means 1.
	Shards, Replicas int
	// GRPC, when set, is the host:port of the node's gRPC API: imports
	// then use Weaviate's gRPC batch API.
	GRPC string
	// Namespace, when set, starts the names of this index's alias and
	// collections (Autorag_<namespace>_<id>), so that an administrator can
	// scope a user's API key to them (docs/WEAVIATE.md).
	Namespace string
}

func (b Backend) name() string {
	if b.Name == "" {
		return BackendLocal
	}
	return b.Name
}

func (b Backend) validate() error {
	switch b.name() {
	case BackendLocal:
		return nil
	case BackendWeaviate:
		if b.URL == "" {
			return fmt.Errorf("backend weaviate needs the cluster's url (AUTORAG_WEAVIATE_URL)")
		}
		if b.Shards < 0 || b.Replicas < 0 {
			return fmt.Errorf("shards and replicas must not be negative: %d, %d", b.Shards, b.Replicas)
		}
		return nil
	}
	return fmt.Errorf("unknown backend %q (want %s or %s)", b.Name, BackendLocal, BackendWeaviate)
}

//semguard:begin backend-id

// id is the fingerprinted name of the backend and its storage settings: ""
// for the local backend, so that its fingerprints are what they were before
// there were backends. A Weaviate id names the schema of its objects
// (weaviate.Schema), so that a collection holding fewer properties than the
// reader asks for is rebuilt by the next refresh.
func (b Backend) id() string {
	if b.name() == BackendLocal {
		return ""
	}
	return fmt.Sprintf("%s shards=%d replicas=%d schema=%d", b.name(), max(b.Shards, 1), max(b.Replicas, 1), weaviate.Schema)
}

//semguard:end backend-id

// Two versions, two caches (semguard/doc.go):
//   - IndexSemanticsVersion (settings.go) versions what an index stores. It
//     is part of the fingerprint, so a bump rebuilds every index on its next
//     refresh, and of every embedder's identity (embedIdentity), so
//     cached embeddings are not reused across a bump. Package semguard
//     keeps the digests of the code that shapes artifacts in semantics.json
//     and fails the tests when they change without a bump.
//   - QuerySemantics (querysemantics.go, generated) is the digest of the
//     query-time code; it is part of every query-cache key.

// embedIdentity is the configured embedder's identity as the fingerprint
// and the embedding cache know it. It carries IndexSemanticsVersion for
// every embedder: what shapes a stored vector is this module's code for
// each of them (the built-in embedder's tokenizer, weighting and table;
// the OpenAI embedder's splitting and averaging of long texts, and what
// it sends), all guarded, so a bump must not reuse a vector cached
// before it.
func (s Settings) embedIdentity() embed.Identity {
	id := s.Embedder.Identity()
	id.Model += "+index" + strconv.Itoa(IndexSemanticsVersion)
	return id
}

// dimsLearner is an embedder whose vector size is learned rather than
// configured: an OpenAI-compatible provider without
// OPENAI_EMBEDDING_DIMENSIONS. The size is part of the embedder's identity,
// hence of the fingerprint, so it must be known before a refresh computes
// the fingerprint and before a query compares identities.
type dimsLearner interface {
	KnowsDims() bool
	// AssumeDims takes the size an index recorded, without a request.
	AssumeDims(n int)
	// ProbeDims learns the size from the provider with one request, even
	// when one is known (unless it is configured).
	ProbeDims(ctx context.Context) error
}

// assumeRecordedDims gives a learning embedder the size the committed
// index recorded for the same provider and model, so that queries and
// status make no request to learn it.
func (e *Engine) assumeRecordedDims(sc *fingerprint.Sidecar) {
	l, ok := e.Settings.Embedder.(dimsLearner)
	if !ok || l.KnowsDims() || sc == nil {
		return
	}
	if n := recordedDims(sc.Settings["embedder"], e.Settings.embedIdentity()); n > 0 {
		l.AssumeDims(n)
	}
}

// learnDims settles a learning embedder's size before a refresh: the size
// already known or the one the committed index recorded (a provider now
// answering with another size then fails the refresh, and nothing is
// committed), or, for a first refresh, another model or a rebuild (also in
// a long-lived process that knew a size), the size of one probe reply.
func (e *Engine) learnDims(ctx context.Context, sc *fingerprint.Sidecar, o RefreshOptions) error {
	l, ok := e.Settings.Embedder.(dimsLearner)
	if !ok {
		return nil
	}
	if !o.Rebuild {
		e.assumeRecordedDims(sc)
		if l.KnowsDims() {
			return nil
		}
	}
	p := progress.Of(o.Progress)
	p.Phase(progress.Probe, "", -1)
	p.Detail("learning the vector size of the embedding model")
	if err := l.ProbeDims(progress.NewWatch(p).Context(ctx)); err != nil {
		id := e.Settings.Embedder.Identity()
		return fmt.Errorf("learn the vector size of %s model %q: %w", id.Provider, id.Model, err)
	}
	return nil
}

// recordedDims is the size in a recorded embedder identity when it is
// cur's identity but for the size; else 0.
func recordedDims(recorded string, cur embed.Identity) int {
	rest, ok := strings.CutPrefix(recorded, cur.Provider+"/"+cur.Model+"/")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(rest)
	if cur.Dims = n; err != nil || n <= 0 || cur.String() != recorded {
		return 0
	}
	return n
}

// SplitOptions is how a refresh cuts documents into chunks; package upgrade cuts them alike.
func (s Settings) SplitOptions() split.Options { return s.split() }
