package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/autorag/autorag/engine/embed/transformer"
	"github.com/autorag/autorag/engine/embed/wordpiece"
	"github.com/autorag/autorag/models"
)

// teacher is the transformer the table is distilled from.
type teacher struct {
	in       models.Installed
	tok      *wordpiece.Tokenizer
	vocab    *wordpiece.Vocab
	cls, sep int32
	tokens   *transformer.Model // pooled as the token vectors are
	texts    *transformer.Model // pooled as the model card says (refinement)
}

func openTeacher(name, pool string) (*teacher, error) {
	in, err := teacherDir(name)
	if err != nil {
		return nil, err
	}
	tj, err := os.ReadFile(in.Path("tokenizer.json"))
	if err != nil {
		return nil, err
	}
	tok, err := wordpiece.FromJSON(tj)
	if err != nil {
		return nil, fmt.Errorf("teacher %s: tokenizer: %w", name, err)
	}
	cls, ok1 := tok.Vocab().ID("[CLS]")
	sep, ok2 := tok.Vocab().ID("[SEP]")
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("teacher %s: no [CLS] or [SEP]", name)
	}
	shape := transformer.Shape{Heads: in.Heads, MaxLen: in.MaxLen}
	own := transformer.Pooling(in.Pooling)
	texts, err := transformer.LoadFile(in.Path(in.Weights().Name), shape, own)
	if err != nil {
		return nil, err
	}
	t := &teacher{in: in, tok: tok, vocab: tok.Vocab(), cls: int32(cls), sep: int32(sep), tokens: texts, texts: texts}
	switch pool {
	case "model":
	case "mean":
		if own != transformer.PoolMean {
			if t.tokens, err = transformer.LoadFile(in.Path(in.Weights().Name), shape, transformer.PoolMean); err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("-pool %q: want mean or model", pool)
	}
	return t, nil
}

// tokenVectors runs each kept token alone through the teacher.
func (t *teacher) tokenVectors(keep []int, log io.Writer) ([][]float32, error) {
	seqs := make([][]int32, len(keep))
	for i, id := range keep {
		seqs[i] = []int32{t.cls, int32(id), t.sep}
	}
	var done atomic.Int64
	return t.tokens.Run(context.Background(), seqs, func() {
		if n := done.Add(1); n%5000 == 0 {
			fmt.Fprintf(log, "distill: %d/%d tokens\n", n, len(seqs))
		}
	})
}

// textVectors embeds passages with the teacher's own pooling and the
// document prefix its card gives.
func (t *teacher) textVectors(texts []string, maxLen int, log io.Writer) ([][]float32, error) {
	seqs := make([][]int32, len(texts))
	for i, s := range texts {
		ids := t.tok.Append(nil, t.in.DocPrefix+s)
		ids = ids[:min(len(ids), min(maxLen, t.in.MaxLen)-2)]
		seq := append(make([]int32, 0, len(ids)+2), t.cls)
		for _, id := range ids {
			seq = append(seq, int32(id))
		}
		seqs[i] = append(seq, t.sep)
	}
	var done atomic.Int64
	return t.texts.Run(context.Background(), seqs, func() {
		if n := done.Add(1); n%500 == 0 {
			fmt.Fprintf(log, "distill: %d/%d passages\n", n, len(seqs))
		}
	})
}

// cached returns the vectors stored in dir/name, or computes and stores
// them (dir "" keeps nothing).
func cached(dir, name string, compute func() ([][]float32, error)) ([][]float32, error) {
	path := filepath.Join(dir, name)
	if dir != "" {
		if vs, err := readVectors(path); err == nil {
			return vs, nil
		}
	}
	vs, err := compute()
	if err != nil || dir == "" {
		return vs, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return vs, writeVectors(path, vs)
}

// The cache format: rows and dims as uint32, then rows × dims float32.
func writeVectors(path string, vs [][]float32) error {
	b := make([]byte, 8, 8+4*len(vs)*len(vs[0]))
	binary.LittleEndian.PutUint32(b, uint32(len(vs)))
	binary.LittleEndian.PutUint32(b[4:], uint32(len(vs[0])))
	for _, v := range vs {
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	return os.WriteFile(path, b, 0o644)
}

func readVectors(path string) ([][]float32, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 8 {
		return nil, fmt.Errorf("%s: too short", path)
	}
	n, d := int(binary.LittleEndian.Uint32(b)), int(binary.LittleEndian.Uint32(b[4:]))
	if n == 0 || d == 0 || len(b) != 8+4*n*d {
		return nil, fmt.Errorf("%s: %d × %d vectors in %d bytes", path, n, d, len(b))
	}
	vs := make([][]float32, n)
	for i := range vs {
		vs[i] = make([]float32, d)
		for j := range vs[i] {
			vs[i][j] = math.Float32frombits(binary.LittleEndian.Uint32(b[8+4*(i*d+j):]))
		}
	}
	return vs, nil
}
