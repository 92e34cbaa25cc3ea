package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/spf13/pflag"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/chunk"
	"github.com/autorag/autorag/mirror/parse/ocr"
	"github.com/autorag/autorag/models"
)

// Every engine setting comes from one of four places, in this order of
// precedence: a flag, the environment (AUTORAG_*), .autorag/config.toml,
// the built-in default. The table below is the only list of them: flags,
// the environment, the config file and `autorag config` are all read from
// it, so a setting cannot be honoured in one place and forgotten in another.

// flagGroup says which commands show a setting's flag: those that shape an
// index (refresh, index rebuild) or those that rank (query).
type flagGroup int

const (
	groupIndex  flagGroup = iota // chunking, file size, embedder: fingerprinted
	groupSearch                  // BM25 and fusion: query time only
)

// Where a setting's value came from.
const (
	sourceFlag    = "flag"
	sourceEnv     = "env"
	sourceConfig  = "config"
	sourceDefault = "default"
	sourceIndex   = "index" // recorded in the committed sidecar
)

type kind int

const (
	kindInt kind = iota
	kindFloat
	kindString
	kindSize // a byte count, with or without a unit (parseSize)
	kindBool // true/false, on/off, yes/no, 1/0 (parseBool)
)

// setting is one row of the table.
type setting struct {
	key   string // config.toml key, and the name `autorag config` prints
	flag  string
	env   string
	group flagGroup
	kind  kind
	def   string
	usage string
	// set parses v (already checked to be of kind) into d.
	set func(d *draft, v string) error
}

// draft is what the table's rows fill before the engine settings are
// built from it.
type draft struct {
	s        engine.Settings
	embedder string
	model    string
	rerank   string
	fusion   string
	alpha    *float64
}

var settingTable = []setting{
	{key: "chunk_size", flag: "chunk-size", env: "AUTORAG_CHUNK_SIZE", group: groupIndex, kind: kindInt,
		def: strconv.Itoa(chunk.DefaultSize), usage: "target chunk size in characters",
		set: func(d *draft, v string) error { return parseInt(v, &d.s.Chunk.Size) }},
	{key: "chunk_overlap", flag: "chunk-overlap", env: "AUTORAG_CHUNK_OVERLAP", group: groupIndex, kind: kindInt,
		def: strconv.Itoa(chunk.DefaultOverlap), usage: "overlap when a long block is cut, in characters",
		set: func(d *draft, v string) error { return parseInt(v, &d.s.Chunk.Overlap) }},
	{key: "syntax_trees", flag: "syntax-trees", env: "AUTORAG_SYNTAX_TREES", group: groupIndex, kind: kindBool,
		def: "false", usage: "cut code along tree-sitter's definitions (16 languages; Go is cut along go/parser's either way); several times the CPU of a first refresh; --syntax-trees alone means true",
		set: func(d *draft, v string) (err error) { d.s.Chunk.Syntax, err = parseBool(v); return err }},
	{key: "max_file_size", flag: "max-file-size", env: "AUTORAG_MAX_FILE_SIZE", group: groupIndex, kind: kindSize,
		def: "16MiB", usage: "skip files larger than this `size` (bytes, or with a unit: KiB, MiB, GiB, KB, MB, GB)",
		set: func(d *draft, v string) (err error) { d.s.MaxFileSize, err = parseSize(v); return err }},
	{key: "embed_cache_bytes", flag: "embed-cache-bytes", env: "AUTORAG_EMBED_CACHE_BYTES", group: groupIndex, kind: kindSize,
		def: "1GiB", usage: "most `size` the embedding cache (.autorag/cache/embeddings) keeps: a refresh past it evicts the vectors no committed chunk (nor an upgrade in progress) uses",
		set: func(d *draft, v string) (err error) { d.s.EmbedCacheCap, err = parseSize(v); return err }},
	{key: "embedder", flag: "embedder", env: "AUTORAG_EMBEDDER", group: groupIndex, kind: kindString,
		def: "local", usage: "`name` of the embedder: local (built-in, offline), transformer (a model run in process, see --model), openai (any OpenAI-compatible API; OPENAI_* variables, shown by autorag config) or none (BM25 only)",
		set: func(d *draft, v string) error { d.embedder = v; return nil }},
	{key: "model", flag: "model", env: "AUTORAG_MODEL", group: groupIndex, kind: kindString,
		def: "", usage: "transformer embedder: `name` of the model (autorag models list); default " + models.Default,
		set: func(d *draft, v string) error { d.model = v; return nil }},
	{key: "backend", flag: "backend", env: "AUTORAG_BACKEND", group: groupIndex, kind: kindString,
		def: "", usage: "`name` of the storage: local (bleve and vectors under .autorag) or weaviate (a cluster at weaviate_url; API key in AUTORAG_WEAVIATE_API_KEY); default: the one the index was built with, else local",
		set: func(d *draft, v string) error { d.s.Backend.Name = v; return nil }},
	{key: "weaviate_url", flag: "weaviate-url", env: "AUTORAG_WEAVIATE_URL", group: groupIndex, kind: kindString,
		def: "", usage: "weaviate backend: REST `url` of any node of the cluster",
		set: func(d *draft, v string) error { d.s.Backend.URL = v; return nil }},
	{key: "weaviate_grpc", flag: "weaviate-grpc", env: "AUTORAG_WEAVIATE_GRPC", group: groupIndex, kind: kindString,
		def: "", usage: "weaviate backend: `host:port` of the node's gRPC API (its GRPC_PORT); imports then use the gRPC batch API",
		set: func(d *draft, v string) error { d.s.Backend.GRPC = v; return nil }},
	{key: "weaviate_namespace", flag: "weaviate-namespace", env: "AUTORAG_WEAVIATE_NAMESPACE", group: groupIndex, kind: kindString,
		def: "", usage: "weaviate backend: `name` (letters and digits) that starts every collection and alias autorag makes, for a role scoped to it on a shared cluster (docs/WEAVIATE.md)",
		set: func(d *draft, v string) error { d.s.Backend.Namespace = v; return nil }},
	{key: "shards", flag: "shards", env: "AUTORAG_SHARDS", group: groupIndex, kind: kindInt,
		def: "1", usage: "weaviate backend: shards per collection",
		set: func(d *draft, v string) error { return parseInt(v, &d.s.Backend.Shards) }},
	{key: "replicas", flag: "replicas", env: "AUTORAG_REPLICAS", group: groupIndex, kind: kindInt,
		def: "1", usage: "weaviate backend: replication factor of each shard",
		set: func(d *draft, v string) error { return parseInt(v, &d.s.Backend.Replicas) }},
	{key: "ocr", flag: "ocr", env: "AUTORAG_OCR", group: groupIndex, kind: kindBool,
		def: "false", usage: "read the pages of scanned PDFs (no text layer) with tesseract (" + ocr.InstallHint + "); --ocr alone means true",
		set: func(d *draft, v string) (err error) { d.s.OCR, err = parseBool(v); return err }},
	{key: "ocr_command", flag: "ocr-command", env: "AUTORAG_OCR_COMMAND", group: groupIndex, kind: kindString,
		def: "", usage: "the tesseract `program` OCR runs (default: tesseract on PATH)",
		set: func(d *draft, v string) error { d.s.OCRCommand = v; return nil }},
	{key: "bm25_k1", flag: "bm25-k1", env: "AUTORAG_BM25_K1", group: groupSearch, kind: kindFloat,
		def: fmtFloat(engine.DefaultK1), usage: "BM25 k1",
		set: func(d *draft, v string) error { return parseFloat(v, &d.s.K1) }},
	{key: "bm25_b", flag: "bm25-b", env: "AUTORAG_BM25_B", group: groupSearch, kind: kindFloat,
		def: fmtFloat(engine.DefaultB), usage: "BM25 b",
		set: func(d *draft, v string) error { return parseFloat(v, &d.s.B) }},
	{key: "fusion", flag: "fusion", env: "AUTORAG_FUSION", group: groupSearch, kind: kindString,
		def: "", usage: "hybrid fusion: adaptive, convex or rrf (default: measured best for the embedder)",
		set: func(d *draft, v string) error { d.fusion = v; return nil }},
	{key: "rerank", flag: "rerank", env: "AUTORAG_RERANK", group: groupSearch, kind: kindString,
		def: "off", usage: "on: re-score the best rerank_n results with the rerank service at AUTORAG_RERANK_URL (Cohere/Jina or TEI /rerank format; AUTORAG_RERANK_MODEL, key in AUTORAG_RERANK_API_KEY, AUTORAG_RERANK_TIMEOUT); when it fails the fused order is kept and the answer says reranked: false; required: its failure fails the query; --rerank alone means on",
		set: func(d *draft, v string) error { d.rerank = v; return nil }},
	{key: "rerank_n", flag: "rerank-n", env: "AUTORAG_RERANK_N", group: groupSearch, kind: kindInt,
		def: strconv.Itoa(engine.DefaultRerankN), usage: "how many of the best results the reranker re-scores",
		set: func(d *draft, v string) error { return parsePositive(v, &d.s.RerankN) }},
	{key: "fusion_alpha", flag: "fusion-alpha", env: "AUTORAG_FUSION_ALPHA", group: groupSearch, kind: kindFloat,
		def: "", usage: "adaptive and convex fusion: weight of BM25 in [0,1]; rrf: weight of the vector list relative to BM25",
		set: func(d *draft, v string) error {
			var f float64
			err := parseFloat(v, &f)
			d.alpha = &f
			return err
		}},
}

func parseInt(v string, dst *int) error {
	n, err := strconv.Atoi(v)
	*dst = n
	return err
}

// parsePositive reads a count that must be at least 1.
func parsePositive(v string, dst *int) error {
	if err := parseInt(v, dst); err != nil {
		return err
	}
	if *dst < 1 {
		return fmt.Errorf("must be at least 1, got %d", *dst)
	}
	return nil
}

// sizeUnits are the units parseSize knows, longest first.
var sizeUnits = []struct {
	name string
	n    int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}

// parseSize reads a byte count, "16777216", "16MiB" or "16 MiB".
func parseSize(v string) (int64, error) {
	num, mult := strings.TrimSpace(v), int64(1)
	for _, u := range sizeUnits {
		if len(num) > len(u.name) && strings.EqualFold(num[len(num)-len(u.name):], u.name) {
			num, mult = strings.TrimSpace(num[:len(num)-len(u.name)]), u.n
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is not a size (bytes, or a number with KiB, MiB, GiB, KB, MB or GB)", v)
	}
	return n * mult, nil
}

// parseBool reads a switch: true/false, on/off, yes/no or 1/0.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not true or false", v)
}

func parseFloat(v string, dst *float64) error {
	f, err := strconv.ParseFloat(v, 64)
	*dst = f
	return err
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// settingFlags holds the flag sets the setting flags were added to; only
// the running command's set is ever parsed.
type settingFlags struct {
	sets []*pflag.FlagSet
	// embedders builds the embedders indexes recorded, shared by every
	// engine the process opens.
	embedders recordedEmbedders
}

// addIndexFlags adds the flags that shape an index (refresh, index rebuild).
func (s *settingFlags) addIndexFlags(fs *pflag.FlagSet) { s.add(fs, groupIndex) }

// addSearchFlags adds the ranking flags (query).
func (s *settingFlags) addSearchFlags(fs *pflag.FlagSet) { s.add(fs, groupSearch) }

func (s *settingFlags) add(fs *pflag.FlagSet, g flagGroup) {
	s.sets = append(s.sets, fs)
	for _, st := range settingTable {
		if st.group != g {
			continue
		}
		usage := fmt.Sprintf("%s (env %s)", st.usage, st.env)
		switch st.kind {
		case kindInt:
			n, _ := strconv.Atoi(st.def)
			fs.Int(st.flag, n, usage)
		case kindFloat:
			f, _ := strconv.ParseFloat(st.def, 64)
			fs.Float64(st.flag, f, usage)
		default:
			fs.String(st.flag, st.def, usage)
		}
		switch st.key {
		case "rerank":
			fs.Lookup(st.flag).NoOptDefVal = "on"
		case "ocr", "syntax_trees":
			fs.Lookup(st.flag).NoOptDefVal = "true"
		}
	}
}

// changed returns a flag's value when the running command set it.
func (s *settingFlags) changed(name string) (string, bool) {
	for _, fs := range s.sets {
		if f := fs.Lookup(name); f != nil && f.Changed {
			return f.Value.String(), true
		}
	}
	return "", false
}

// settingValue is one effective setting and where it came from.
type settingValue struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`         // flag, env, config or default
	From   string `json:"from,omitempty"` // the flag, variable or file
}

// values resolves every row of the table.
func (s *settingFlags) values(configPath string) ([]settingValue, error) {
	file, err := readConfigFile(configPath)
	if err != nil {
		return nil, err
	}
	out := make([]settingValue, 0, len(settingTable))
	for _, st := range settingTable {
		v := settingValue{Key: st.key, Value: st.def, Source: sourceDefault}
		if fv, ok := s.changed(st.flag); ok {
			v.Value, v.Source, v.From = fv, sourceFlag, "--"+st.flag
		} else if ev := os.Getenv(st.env); ev != "" {
			v.Value, v.Source, v.From = ev, sourceEnv, st.env
		} else if cv, ok := file[st.key]; ok {
			v.Value, v.Source, v.From = cv, sourceConfig, configPath
		}
		out = append(out, v)
	}
	return out, nil
}

// readConfigFile reads .autorag/config.toml as strings by key; a missing
// file is an empty one.
func readConfigFile(path string) (map[string]string, error) {
	var raw map[string]any
	_, err := toml.DecodeFile(path, &raw)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, usagef("config %s: %w (fix the file or remove it; `autorag config` shows what is in effect)", path, err)
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		switch v := v.(type) {
		case float64:
			out[k] = fmtFloat(v)
		default:
			out[k] = fmt.Sprint(v)
		}
	}
	return out, nil
}

// describe names where a value came from, for error messages.
func (v settingValue) describe() string {
	switch v.Source {
	case sourceFlag:
		return fmt.Sprintf("%s %q", v.From, v.Value)
	case sourceEnv:
		return fmt.Sprintf("%s=%q", v.From, v.Value)
	case sourceConfig:
		return fmt.Sprintf("%s in %s = %q", v.Key, v.From, v.Value)
	}
	return fmt.Sprintf("default %s = %q", v.Key, v.Value)
}

// resolve builds the engine settings from the flags, the environment and
// the config file.
func (s *settingFlags) resolve(configPath string) (engine.Settings, error) {
	vals, err := s.values(configPath)
	if err != nil {
		return engine.Settings{}, err
	}
	d := draft{s: engine.DefaultSettings(), embedder: "local"}
	for i, st := range settingTable {
		v := vals[i]
		if v.Value == "" && st.kind != kindString {
			continue // no value: the engine's default
		}
		if err := st.set(&d, v.Value); err != nil {
			return d.s, usagef("%s: want %s", v.describe(), kindName(st.kind))
		}
	}
	// The key is read from the environment only: it never goes through
	// the table, which `autorag config` prints.
	d.s.Backend.APIKey = os.Getenv("AUTORAG_WEAVIATE_API_KEY")
	emb, err := newEmbedder(d.embedder, d.model)
	if err != nil {
		return d.s, err
	}
	d.s.Embedder = emb
	d.s.EmbedderChosen = chosen(vals, "embedder") || chosen(vals, "model")
	d.s.Recorded = s.embedders.source
	if d.s.Fusion, err = fusionFrom(d, emb); err != nil {
		return d.s, err
	}
	if d.s.Reranker, err = newReranker(d.rerank); err != nil {
		return d.s, err
	}
	d.s.RerankRequired = d.rerank == "required"
	if err := d.s.Validate(); err != nil {
		return d.s, usagef("%w (see `autorag config` for where each setting comes from)", err)
	}
	return d.s, nil
}

// chosen reports whether the setting key was given (by a flag, the
// environment or the config file) rather than left at its default.
func chosen(vals []settingValue, key string) bool {
	for _, v := range vals {
		if v.Key == key {
			return v.Source != sourceDefault
		}
	}
	return false
}

func kindName(k kind) string {
	switch k {
	case kindInt:
		return "an integer"
	case kindFloat:
		return "a number"
	case kindSize:
		return "a size (bytes, or a number with KiB, MiB, GiB, KB, MB or GB)"
	case kindBool:
		return "true or false"
	}
	return "a string"
}
