package main

import (
	"errors"
	"os"
	"strconv"

	"github.com/BurntSushi/toml"
	"github.com/spf13/pflag"

	"github.com/autorag/autorag/engine"
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
}

// fileConfig is .autorag/config.toml.
type fileConfig struct {
	ChunkSize    *int     `toml:"chunk_size"`
	ChunkOverlap *int     `toml:"chunk_overlap"`
	MaxFileSize  *int64   `toml:"max_file_size"`
	BM25K1       *float64 `toml:"bm25_k1"`
	BM25B        *float64 `toml:"bm25_b"`
}

func (s *settingFlags) register(fs *pflag.FlagSet) {
	s.fs = fs
	d := engine.DefaultSettings()
	fs.IntVar(&s.chunkSize, "chunk-size", d.Chunk.Size, "target chunk size in characters (env AUTORAG_CHUNK_SIZE)")
	fs.IntVar(&s.chunkOverlap, "chunk-overlap", d.Chunk.Overlap, "overlap when a long block is cut, in characters (env AUTORAG_CHUNK_OVERLAP)")
	fs.Int64Var(&s.maxFileSize, "max-file-size", 0, "skip files larger than this many bytes; 0 = 16 MiB (env AUTORAG_MAX_FILE_SIZE)")
	fs.Float64Var(&s.k1, "bm25-k1", d.K1, "BM25 k1 (env AUTORAG_BM25_K1)")
	fs.Float64Var(&s.b, "bm25-b", d.B, "BM25 b (env AUTORAG_BM25_B)")
}

func (s *settingFlags) resolve(configPath string) (engine.Settings, error) {
	out := engine.DefaultSettings()
	if err := applyConfigFile(configPath, &out); err != nil {
		return out, err
	}
	if err := applyEnv(&out); err != nil {
		return out, err
	}
	s.applyFlags(&out)
	if err := out.Validate(); err != nil {
		return out, &usageError{err: err}
	}
	return out, nil
}

func applyConfigFile(path string, out *engine.Settings) error {
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
	return nil
}

func setInt(dst *int, v *int) {
	if v != nil {
		*dst = *v
	}
}

func applyEnv(out *engine.Settings) error {
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

func (s *settingFlags) applyFlags(out *engine.Settings) {
	if s.fs == nil {
		return
	}
	changed := func(name string) bool { f := s.fs.Lookup(name); return f != nil && f.Changed }
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
}
