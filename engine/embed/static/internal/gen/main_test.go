package main

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/embed/static/internal/tab"
)

// writeModel lays out a tiny model2vec model directory.
func writeModel(t *testing.T, config string, rows int) string {
	t.Helper()
	dir := t.TempDir()
	vocab := map[string]int{"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "heart": 5, "##s": 6}
	var added []map[string]any
	for _, s := range []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"} {
		added = append(added, map[string]any{"id": vocab[s], "content": s, "special": true})
	}
	tj, _ := json.Marshal(map[string]any{
		"added_tokens":  added,
		"normalizer":    map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": nil, "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"model":         map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100, "vocab": vocab},
	})
	write(t, filepath.Join(dir, "tokenizer.json"), tj)
	write(t, filepath.Join(dir, "config.json"), []byte(config))
	const dims = 4
	header, _ := json.Marshal(map[string]any{"embeddings": map[string]any{"dtype": "F32", "shape": []int{rows, dims}, "data_offsets": []int{0, 4 * rows * dims}}})
	st := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	st = append(st, header...)
	for i := range rows * dims {
		st = binary.LittleEndian.AppendUint32(st, math.Float32bits(float32(i)/10))
	}
	write(t, filepath.Join(dir, "model.safetensors"), st)
	return dir
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

const goodConfig = `{"model_type": "model2vec", "normalize": true, "hidden_dim": 4}`

func TestGenerate(t *testing.T) {
	dir := writeModel(t, goodConfig, 7)
	out := filepath.Join(t.TempDir(), "m.tab")
	if err := run([]string{"-src", dir, "-out", out}, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tab.Open(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if tb.Rows() != 7 || tb.Dims() != 4 {
		t.Fatalf("rows %d dims %d, want 7 × 4", tb.Rows(), tb.Dims())
	}
	scale, q := tb.Row(6) // 2.4 2.5 2.6 2.7
	if got := float64(scale) * float64(int8(q[3])); math.Abs(got-2.7) > 1e-6 {
		t.Errorf("row 6[3] = %g, want 2.7", got)
	}
}

func TestGenerateRejects(t *testing.T) {
	for name, tc := range map[string]struct {
		config string
		rows   int
		want   string
	}{
		"not normalized":  {`{"model_type": "model2vec", "normalize": false}`, 7, "normalize"},
		"rows for tokens": {goodConfig, 6, "6 rows for 7 tokens"},
	} {
		dir := writeModel(t, tc.config, tc.rows)
		err := run([]string{"-src", dir, "-out", filepath.Join(t.TempDir(), "m.tab")}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one about %q", name, err, tc.want)
		}
	}
}
