package weights

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/autorag/autorag/internal/protowire"
)

// ONNX TensorProto data types read here.
const (
	onnxFloat = 1
	onnxUint8 = 2
	onnxInt8  = 3
	onnxInt32 = 6
	onnxInt64 = 7
)

// rawTensor is an initializer as stored: raw points into the file's bytes
// (no copy); floats and ints hold the values of the typed fields instead.
type rawTensor struct {
	name   string
	dtype  int
	dims   []int
	raw    []byte
	floats []float32
	ints   []int64
}

type node struct {
	op      string
	inputs  []string
	outputs []string
}

// matmulOut names a linear layer by the output of its MatMul node, as the
// torch exporter names it: "/encoder/layer.0/attention/self/query/MatMul_output_0".
var matmulOut = regexp.MustCompile(`^/(.+)/MatMul_output_0`)

// ReadONNX decodes the initializers of an ONNX model into a Set: linear
// weights under their checkpoint names (in × out, InOut set), quantized
// tensors dequantized, everything else as named in the file.
func ReadONNX(b []byte) (Set, error) {
	graph, err := field(b, 7)
	if err != nil {
		return nil, fmt.Errorf("onnx: model: %w", err)
	}
	if graph == nil {
		return nil, fmt.Errorf("onnx: no graph in the model")
	}
	inits, nodes, err := decodeGraph(graph)
	if err != nil {
		return nil, fmt.Errorf("onnx: graph: %w", err)
	}
	return assemble(inits, nodes)
}

// assemble names and dequantizes the initializers.
func assemble(inits map[string]*rawTensor, nodes []node) (Set, error) {
	set := Set{}
	used := map[string]bool{}
	for _, n := range nodes {
		if (n.op != "MatMulInteger" && n.op != "MatMul") || len(n.inputs) < 2 || len(n.outputs) < 1 {
			continue
		}
		w, ok := inits[n.inputs[1]]
		if !ok {
			continue // activation × activation (attention)
		}
		m := matmulOut.FindStringSubmatch(n.outputs[0])
		if m == nil {
			return nil, fmt.Errorf("onnx: cannot name the linear layer of node output %q", n.outputs[0])
		}
		t, err := tensorOf(w, inits, used)
		if err != nil {
			return nil, err
		}
		t.InOut = true
		set[strings.ReplaceAll(m[1], "/", ".")+".weight"] = t
	}
	for name, r := range inits {
		if used[name] || strings.HasPrefix(name, "onnx::") || strings.HasSuffix(name, "_scale") || strings.HasSuffix(name, "_zero_point") {
			continue
		}
		if r.dtype != onnxFloat && !strings.HasSuffix(name, "_quantized") {
			continue // position_ids and other integer buffers
		}
		t, err := tensorOf(r, inits, used)
		if err != nil {
			return nil, err
		}
		set[strings.TrimSuffix(name, "_quantized")] = t
	}
	return set, nil
}

// tensorOf converts r to float32, dequantizing X_quantized with X_scale and
// X_zero_point (per tensor, or per output column of a 2-D weight).
func tensorOf(r *rawTensor, inits map[string]*rawTensor, used map[string]bool) (*Tensor, error) {
	used[r.name] = true
	out := make([]float32, r.len())
	if !strings.HasSuffix(r.name, "_quantized") {
		if r.dtype != onnxFloat {
			return nil, fmt.Errorf("onnx: initializer %s: data type %d is not float32", r.name, r.dtype)
		}
		for i := range out {
			out[i] = float32(r.at(i))
		}
		return &Tensor{Shape: r.dims, Data: out}, nil
	}
	base := strings.TrimSuffix(r.name, "_quantized")
	scale, zero := inits[base+"_scale"], inits[base+"_zero_point"]
	if scale == nil || zero == nil || scale.len() != zero.len() {
		return nil, fmt.Errorf("onnx: quantized %s lacks a matching %s_scale and %s_zero_point", r.name, base, base)
	}
	per := scale.len()
	cols := 1
	if len(r.dims) > 0 {
		cols = r.dims[len(r.dims)-1]
	}
	if per != 1 && per != cols {
		return nil, fmt.Errorf("onnx: %s has %d scales for %v", r.name, per, r.dims)
	}
	scales, zeros := make([]float32, per), make([]float32, per)
	for c := range scales {
		scales[c], zeros[c] = float32(scale.at(c)), float32(zero.at(c))
	}
	dequantize(out, r, scales, zeros, per > 1, cols)
	return &Tensor{Shape: r.dims, Data: out}, nil
}

func decodeGraph(b []byte) (map[string]*rawTensor, []node, error) {
	inits := map[string]*rawTensor{}
	var nodes []node
	err := each(b, func(num protowire.Number, v []byte) error {
		switch num {
		case 1:
			n, err := decodeNode(v)
			nodes = append(nodes, n)
			return err
		case 5:
			t, err := decodeTensor(v)
			if err != nil {
				return err
			}
			inits[t.name] = t
		}
		return nil
	})
	return inits, nodes, err
}

func decodeNode(b []byte) (node, error) {
	var n node
	err := each(b, func(num protowire.Number, v []byte) error {
		switch num {
		case 1:
			n.inputs = append(n.inputs, string(v))
		case 2:
			n.outputs = append(n.outputs, string(v))
		case 4:
			n.op = string(v)
		}
		return nil
	})
	return n, err
}

// dequantize writes (q - zero)·scale for every value of r, per column when
// perColumn (cols columns), per tensor otherwise; the two 8-bit types
// stored as raw data, the usual case, take a loop of their own.
func dequantize(out []float32, r *rawTensor, scales, zeros []float32, perColumn bool, cols int) {
	col := func(i int) int {
		if perColumn {
			return i % cols
		}
		return 0
	}
	switch {
	case r.raw != nil && r.dtype == onnxInt8:
		for i, b := range r.raw {
			c := col(i)
			out[i] = (float32(int8(b)) - zeros[c]) * scales[c]
		}
	case r.raw != nil && r.dtype == onnxUint8:
		for i, b := range r.raw {
			c := col(i)
			out[i] = (float32(b) - zeros[c]) * scales[c]
		}
	default:
		for i := range out {
			c := col(i)
			out[i] = (float32(r.at(i)) - zeros[c]) * scales[c]
		}
	}
}
