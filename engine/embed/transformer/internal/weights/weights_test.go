package weights

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

func TestSafetensors(t *testing.T) {
	hdr, _ := json.Marshal(map[string]any{
		"__metadata__":            map[string]string{"format": "pt"},
		"bert.embeddings.w":       map[string]any{"dtype": "F32", "shape": []int{2}, "data_offsets": []int{0, 8}},
		"h":                       map[string]any{"dtype": "F16", "shape": []int{3}, "data_offsets": []int{8, 14}},
		"embeddings.position_ids": map[string]any{"dtype": "I64", "shape": []int{1}, "data_offsets": []int{14, 22}},
	})
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(hdr)))
	b = append(b, hdr...)
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(1.5))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(-2))
	for _, h := range []uint16{0x3c00, 0xc000, 0x0001} { // 1, -2, the least subnormal
		b = binary.LittleEndian.AppendUint16(b, h)
	}
	b = binary.LittleEndian.AppendUint64(b, 7)
	s, err := ReadSafetensors(b)
	if err != nil {
		t.Fatal(err)
	}
	if w := s["embeddings.w"]; w == nil || w.Data[0] != 1.5 || w.Data[1] != -2 {
		t.Fatalf("F32 tensor (bert. prefix dropped): %+v", s["embeddings.w"])
	}
	if h := s["h"].Data; h[0] != 1 || h[1] != -2 || h[2] != float32(math.Ldexp(1, -24)) {
		t.Fatalf("F16 tensor: %v", h)
	}
	if _, ok := s["embeddings.position_ids"]; ok {
		t.Fatal("integer tensor read as a weight")
	}
	if _, err := ReadSafetensors(b[:len(b)-9]); err == nil || !strings.Contains(err.Error(), "offsets") {
		t.Fatalf("truncated file: %v", err)
	}
}

// tensorProto encodes an ONNX TensorProto with raw data.
func tensorProto(name string, dtype int, dims []int64, raw []byte) []byte {
	var b []byte
	for _, d := range dims {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(d))
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(dtype))
	b = protowire.AppendTag(b, 8, protowire.BytesType)
	b = protowire.AppendString(b, name)
	b = protowire.AppendTag(b, 9, protowire.BytesType)
	return protowire.AppendBytes(b, raw)
}

func nodeProto(op string, inputs, outputs []string) []byte {
	var b []byte
	for _, s := range inputs {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	for _, s := range outputs {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	b = protowire.AppendTag(b, 4, protowire.BytesType)
	return protowire.AppendString(b, op)
}

func f32s(v ...float32) []byte {
	var b []byte
	for _, f := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

// TestONNXQuantized reads a graph shaped like quantize_dynamic's output: a
// per-column int8 MatMulInteger weight named by its node, a per-tensor
// uint8 embedding, a float bias.
func TestONNXQuantized(t *testing.T) {
	var g []byte
	add := func(field protowire.Number, msg []byte) {
		g = protowire.AppendTag(g, field, protowire.BytesType)
		g = protowire.AppendBytes(g, msg)
	}
	add(1, nodeProto("MatMulInteger", []string{"/x_q", "onnx::MatMul_7_quantized", "/x_zp", "onnx::MatMul_7_zero_point"},
		[]string{"/encoder/layer.0/attention/self/query/MatMul_output_0_output_quantized"}))
	add(1, nodeProto("MatMul", []string{"/a", "/b"}, []string{"/encoder/layer.0/attention/self/MatMul_output_0"}))
	add(5, tensorProto("onnx::MatMul_7_quantized", onnxInt8, []int64{2, 2}, []byte{1, 0xff, 2, 4})) // [[1,-1],[2,4]]
	add(5, tensorProto("onnx::MatMul_7_scale", onnxFloat, []int64{2}, f32s(0.5, 0.25)))
	add(5, tensorProto("onnx::MatMul_7_zero_point", onnxInt8, []int64{2}, []byte{0, 0}))
	add(5, tensorProto("embeddings.word_embeddings.weight_quantized", onnxUint8, []int64{1, 2}, []byte{130, 126}))
	add(5, tensorProto("embeddings.word_embeddings.weight_scale", onnxFloat, nil, f32s(0.5)))
	add(5, tensorProto("embeddings.word_embeddings.weight_zero_point", onnxUint8, nil, []byte{128}))
	add(5, tensorProto("encoder.layer.0.attention.self.query.bias", onnxFloat, []int64{2}, f32s(3, 4)))
	add(5, tensorProto("embeddings.position_ids", onnxInt64, []int64{1}, binary.LittleEndian.AppendUint64(nil, 0)))
	model := protowire.AppendTag(nil, 7, protowire.BytesType)
	model = protowire.AppendBytes(model, g)

	s, err := ReadONNX(model)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]float32{
		"encoder.layer.0.attention.self.query.weight": {0.5, -0.25, 1, 1},
		"embeddings.word_embeddings.weight":           {1, -1},
		"encoder.layer.0.attention.self.query.bias":   {3, 4},
	}
	if len(s) != len(want) {
		t.Fatalf("tensors %v, want %d", s.Names(), len(want))
	}
	for name, w := range want {
		got := s[name]
		if got == nil {
			t.Fatalf("%s missing from %v", name, s.Names())
		}
		for i := range w {
			if got.Data[i] != w[i] {
				t.Fatalf("%s = %v, want %v", name, got.Data, w)
			}
		}
	}
	if !s["encoder.layer.0.attention.self.query.weight"].InOut {
		t.Fatal("a MatMul weight is not marked in × out")
	}
	if _, err := ReadONNX(model[:len(model)-3]); err == nil {
		t.Fatal("a truncated model was read")
	}
}
