package transformer

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/autorag/autorag/engine/embed/transformer/internal/weights"
)

// Pooling turns a sequence's last hidden states into one vector.
type Pooling string

const (
	PoolMean Pooling = "mean" // average of every token's state (MiniLM, e5)
	PoolCLS  Pooling = "cls"  // the [CLS] token's state (bge)
)

// Model is a loaded encoder with its pooling: it maps token ids to
// L2-normalized vectors. It is immutable and safe for concurrent use.
type Model struct {
	enc     *encoder
	pooling Pooling
}

// LoadFile reads the weights of a BERT encoder from an ONNX or a
// safetensors file (told apart by the name's extension), or from an E5S1
// file (told by its magic; its header gives heads and epsilon, shape only
// the maximum length).
func LoadFile(path string, shape Shape, pooling Pooling) (*Model, error) {
	if isE5S1(path) {
		f, err := loadE5S1(path, shape.MaxLen, pooling)
		if err != nil {
			return nil, err
		}
		return f.model, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read model weights: %w", err)
	}
	var set weights.Set
	switch {
	case strings.HasSuffix(path, ".onnx"):
		set, err = weights.ReadONNX(b)
	case strings.HasSuffix(path, ".safetensors"):
		set, err = weights.ReadSafetensors(b)
	default:
		return nil, fmt.Errorf("model weights %s: neither .onnx nor .safetensors", path)
	}
	if err != nil {
		return nil, fmt.Errorf("model weights %s: %w", path, err)
	}
	return newModel(set, shape, pooling)
}

func newModel(set weights.Set, shape Shape, pooling Pooling) (*Model, error) {
	if pooling != PoolMean && pooling != PoolCLS {
		return nil, fmt.Errorf("unknown pooling %q (mean or cls)", pooling)
	}
	if shape.Eps == 0 {
		shape.Eps = 1e-12
	}
	enc, err := newEncoder(set, shape, int8Products)
	if err != nil {
		return nil, fmt.Errorf("model weights: %w", err)
	}
	return &Model{enc: enc, pooling: pooling}, nil
}

// Dims is the length of the vectors.
func (m *Model) Dims() int { return m.enc.hidden }

// MaxLen is the longest sequence the model takes, special tokens included.
func (m *Model) MaxLen() int { return m.enc.shape.MaxLen }

// Vocab is the number of token ids the model knows.
func (m *Model) Vocab() int { return m.enc.vocab }

// vector runs one sequence and pools it into dst (Dims floats), normalized.
func (m *Model) vector(st *state, ids []int32, dst []float32) {
	rows := len(ids)
	if m.pooling == PoolCLS {
		rows = 1 // the last layer computes the [CLS] state alone
	}
	hs := m.enc.forward(st, ids, rows)
	h := m.enc.hidden
	clear(dst)
	switch m.pooling {
	case PoolCLS:
		copy(dst, hs[:h])
	default:
		for i := range ids {
			for j, v := range hs[i*h : i*h+h] {
				dst[j] += v
			}
		}
	}
	normalize(dst)
}

func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}
