package engine

import (
	"fmt"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/chunk"
	"github.com/autorag/autorag/engine/embed"
)

// IndexSemanticsVersion versions what the engine stores in a generation.
// Bump it whenever a change alters what an artifact holds for the same
// input; the fingerprint includes it, so the next refresh rebuilds.
const IndexSemanticsVersion = 10

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
	// Fusion combines BM25 and vectors in hybrid mode; the zero value
	// means DefaultFusion for the embedder. Query-time only.
	Fusion Fusion
	// EmbedCacheCap bounds the embedding cache in bytes (entries no
	// generation uses are evicted past it).
	EmbedCacheCap int64
	// Backend is where the searchable state lives (backend.go); its id is
	// fingerprinted, its address and key are not.
	Backend Backend
	// Reranker, when set, re-scores the best RerankN results of every
	// query (0: DefaultRerankN). Query-time only; its name is in the
	// query cache key.
	Reranker Reranker
	RerankN  int
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
// version, which a query reads back from the sidecar (querylang.go).
func (s Settings) analyzerID() string {
	if s.multilingual() {
		return analyze.MultiVersion
	}
	return analyze.Version
}

//semguard:end fingerprint-settings
