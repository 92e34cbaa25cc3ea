package main

import (
	"errors"
	"os"
	"strconv"

	"github.com/BurntSushi/toml"
	"github.com/spf13/pflag"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/local"
	"github.com/autorag/autorag/engine/embed/openai"
)

// settingFlags are the engine settings on the command line. Precedence:
// flags, then environment (AUTORAG_*), then .autorag/config.toml, then the
// built-in defaults.
type settingFlags struct {
	fs           *pflag.FlagSet
	chunkSize    int
	chunkOverlap int
	maxFileSize  int64
	k1, b        float64
	embedder     string
	fusion       string
	alpha        float64
}

// fileConfig is .autorag/config.toml.
type fileConfig struct {
	ChunkSize    *int     `toml:"chunk_size"`
	ChunkOverlap *int     `toml:"chunk_overlap"`
	MaxFileSize  *int64   `toml:"max_file_size"`
	BM25K1       *float64 `toml:"bm25_k1"`
	BM25B        *float64 `toml:"bm25_b"`
	Embedder     *string  `toml:"embedder"`
	Fusion       *string  `toml:"fusion"`
	FusionAlpha  *float64 `toml:"fusion_alpha"`
}

func (s *settingFlags) register(fs *pflag.FlagSet) {
	s.fs = fs
	d := engine.DefaultSettings()
	fs.IntVar(&s.chunkSize, "chunk-size", d.Chunk.Size, "target chunk size in characters (env AUTORAG_CHUNK_SIZE)")
	fs.IntVar(&s.chunkOverlap, "chunk-overlap", d.Chunk.Overlap, "overlap when a long block is cut, in characters (env AUTORAG_CHUNK_OVERLAP)")
	fs.Int64Var(&s.maxFileSize, "max-file-size", 0, "skip files larger than this many bytes; 0 = 16 MiB (env AUTORAG_MAX_FILE_SIZE)")
	fs.Float64Var(&s.k1, "bm25-k1", d.K1, "BM25 k1 (env AUTORAG_BM25_K1)")
	fs.Float64Var(&s.b, "bm25-b", d.B, "BM25 b (env AUTORAG_BM25_B)")
	fs.StringVar(&s.embedder, "embedder", "local", "local (built-in, offline), openai (any OpenAI-compatible API: OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_EMBEDDING_MODEL) or none (BM25 only) (env AUTORAG_EMBEDDER)")
	fs.StringVar(&s.fusion, "fusion", "", "hybrid fusion: convex or rrf (default: measured best for the embedder) (env AUTORAG_FUSION)")
	fs.Float64Var(&s.alpha, "fusion-alpha", 0, "convex fusion: weight of BM25 in [0,1]; rrf: weight of the vector list relative to BM25 (env AUTORAG_FUSION_ALPHA)")
}

// resolved is what the flags, the environment and the config file say
// beyond the engine's numeric settings.
type resolved struct {
	embedder string
	fusion   string
	alpha    *float64
}

func (s *settingFlags) resolve(configPath string) (engine.Settings, error) {
	out := engine.DefaultSettings()
	r := resolved{embedder: "local"}
	if err := applyConfigFile(configPath, &out, &r); err != nil {
		return out, err
	}
	if err := applyEnv(&out, &r); err != nil {
		return out, err
	}
	s.applyFlags(&out, &r)
	emb, err := newEmbedder(r.embedder)
	if err != nil {
		return out, err
	}
	out.Embedder = emb
	if out.Fusion, err = fusionFrom(r, emb); err != nil {
		return out, err
	}
	if err := out.Validate(); err != nil {
		return out, &usageError{err: err}
	}
	return out, nil
}

// newEmbedder builds the configured embedder; "none" builds a BM25-only
// index.
func newEmbedder(name string) (embed.Embedder, error) {
	switch name {
	case "local", "":
		return local.New(), nil
	case "none":
		return nil, nil
	case "openai":
		cfg, err := openai.ConfigFromEnv(os.Getenv)
		if err != nil {
			return nil, &usageError{err: err}
		}
		e, err := openai.New(cfg)
		if err != nil {
			return nil, &usageError{err: err}
		}
		return e, nil
	}
	return nil, usagef("unknown embedder %q (want local, openai or none)", name)
}

// fusionFrom applies --fusion and --fusion-alpha over the embedder's
// default.
func fusionFrom(r resolved, emb embed.Embedder) (engine.Fusion, error) {
	if r.fusion == "" && r.alpha == nil {
		return engine.Fusion{}, nil
	}
	var f engine.Fusion
	if emb != nil {
		f = engine.DefaultFusion(emb.Identity())
	}
	switch r.fusion {
	case engine.FusionConvex:
		f = engine.DefaultConvex
	case engine.FusionRRF:
		f = engine.DefaultRRF
	case "":
	default:
		return f, usagef("unknown fusion %q (want convex or rrf)", r.fusion)
	}
	if r.alpha != nil {
		if f.Method == engine.FusionRRF {
			f.WDense = *r.alpha
		} else {
			f.Alpha = *r.alpha
		}
	}
	return f, nil
}

func applyConfigFile(path string, out *engine.Settings, r *resolved) error {
	var c fileConfig
	_, err := toml.DecodeFile(path, &c)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return usagef("config %s: %w", path, err)
	}
	setInt(&out.Chunk.Size, c.ChunkSize)
	setInt(&out.Chunk.Overlap, c.ChunkOverlap)
	if c.MaxFileSize != nil {
		out.MaxFileSize = *c.MaxFileSize
	}
	if c.BM25K1 != nil {
		out.K1 = *c.BM25K1
	}
	if c.BM25B != nil {
		out.B = *c.BM25B
	}
	if c.Embedder != nil {
		r.embedder = *c.Embedder
	}
	if c.Fusion != nil {
		r.fusion = *c.Fusion
	}
	if c.FusionAlpha != nil {
		r.alpha = c.FusionAlpha
	}
	return nil
}

func setInt(dst *int, v *int) {
	if v != nil {
		*dst = *v
	}
}

func applyEnv(out *engine.Settings, r *resolved) error {
	if v := os.Getenv("AUTORAG_EMBEDDER"); v != "" {
		r.embedder = v
	}
	if v := os.Getenv("AUTORAG_FUSION"); v != "" {
		r.fusion = v
	}
	if v := os.Getenv("AUTORAG_FUSION_ALPHA"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return usagef("AUTORAG_FUSION_ALPHA=%q: not a number", v)
		}
		r.alpha = &f
	}
	ints := []struct {
		name string
		dst  *int
	}{{"AUTORAG_CHUNK_SIZE", &out.Chunk.Size}, {"AUTORAG_CHUNK_OVERLAP", &out.Chunk.Overlap}}
	for _, e := range ints {
		if v, ok := os.LookupEnv(e.name); ok && v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return usagef("%s=%q: not an integer", e.name, v)
			}
			*e.dst = n
		}
	}
	if v, ok := os.LookupEnv("AUTORAG_MAX_FILE_SIZE"); ok && v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return usagef("AUTORAG_MAX_FILE_SIZE=%q: not an integer", v)
		}
		out.MaxFileSize = n
	}
	floats := []struct {
		name string
		dst  *float64
	}{{"AUTORAG_BM25_K1", &out.K1}, {"AUTORAG_BM25_B", &out.B}}
	for _, e := range floats {
		if v, ok := os.LookupEnv(e.name); ok && v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return usagef("%s=%q: not a number", e.name, v)
			}
			*e.dst = f
		}
	}
	return nil
}

func (s *settingFlags) applyFlags(out *engine.Settings, r *resolved) {
	if s.fs == nil {
		return
	}
	changed := s.fs.Changed
	if changed("chunk-size") {
		out.Chunk.Size = s.chunkSize
	}
	if changed("chunk-overlap") {
		out.Chunk.Overlap = s.chunkOverlap
	}
	if changed("max-file-size") {
		out.MaxFileSize = s.maxFileSize
	}
	if changed("bm25-k1") {
		out.K1 = s.k1
	}
	if changed("bm25-b") {
		out.B = s.b
	}
	if changed("embedder") {
		r.embedder = s.embedder
	}
	if changed("fusion") {
		r.fusion = s.fusion
	}
	if changed("fusion-alpha") {
		a := s.alpha
		r.alpha = &a
	}
}
