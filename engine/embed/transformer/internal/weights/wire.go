package weights

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/autorag/autorag/internal/protowire"
)

// scan calls fn for every field of the message b: bytes for a
// length-delimited field, the value for a varint, the bits for fixed32 and
// fixed64.
func scan(b []byte, fn func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("bad field tag: %w", protowire.ParseError(n))
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var x32 uint32
			x32, n = protowire.ConsumeFixed32(b)
			x = uint64(x32)
		case protowire.Fixed64Type:
			x, n = protowire.ConsumeFixed64(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}

// each calls fn for every length-delimited field of b.
func each(b []byte, fn func(num protowire.Number, v []byte) error) error {
	return scan(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		return fn(num, v)
	})
}

// field returns the last length-delimited field numbered num of b (nil if
// none), as protobuf merges a repeated singular field.
func field(b []byte, num protowire.Number) ([]byte, error) {
	var out []byte
	err := each(b, func(n protowire.Number, v []byte) error {
		if n == num {
			out = v
		}
		return nil
	})
	return out, err
}

// varints appends the values of a repeated varint field, packed (v) or
// not (x).
func varints(dst []int64, typ protowire.Type, v []byte, x uint64) ([]int64, error) {
	if typ == protowire.VarintType {
		return append(dst, int64(x)), nil
	}
	for len(v) > 0 {
		y, n := protowire.ConsumeVarint(v)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		dst = append(dst, int64(y))
		v = v[n:]
	}
	return dst, nil
}

// decodeTensor reads a TensorProto's name, type, dims and values.
func decodeTensor(b []byte) (*rawTensor, error) {
	t := &rawTensor{}
	var dims []int64
	external := false
	err := scan(b, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
		var err error
		switch num {
		case 1:
			dims, err = varints(dims, typ, v, x)
		case 2:
			t.dtype = int(x)
		case 4:
			t.floats, err = fixed32s(t.floats, typ, v, x)
		case 5, 7:
			t.ints, err = varints(t.ints, typ, v, x)
		case 8:
			t.name = string(v)
		case 9:
			t.raw = v
		case 14:
			external = x == 1
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("initializer %s: %w", t.name, err)
	}
	if external {
		return nil, fmt.Errorf("initializer %s: weights in an external data file are not supported", t.name)
	}
	for _, d := range dims {
		t.dims = append(t.dims, int(d))
	}
	if err := checkValues(t); err != nil {
		return nil, fmt.Errorf("initializer %s: %w", t.name, err)
	}
	return t, nil
}

func fixed32s(dst []float32, typ protowire.Type, v []byte, x uint64) ([]float32, error) {
	if typ == protowire.Fixed32Type {
		return append(dst, math.Float32frombits(uint32(x))), nil
	}
	if len(v)%4 != 0 {
		return nil, fmt.Errorf("packed floats of %d bytes", len(v))
	}
	for i := 0; i < len(v); i += 4 {
		dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(v[i:])))
	}
	return dst, nil
}

// checkValues checks that the tensor's values are all there, in raw_data
// (the usual case) or in the typed fields.
func checkValues(t *rawTensor) error {
	n := numel(t.dims)
	size := map[int]int{onnxFloat: 4, onnxUint8: 1, onnxInt8: 1, onnxInt32: 4, onnxInt64: 8}[t.dtype]
	switch {
	case size == 0:
		return fmt.Errorf("data type %d not supported", t.dtype)
	case t.raw != nil && len(t.raw) != n*size:
		return fmt.Errorf("%d raw bytes for %d values of %d bytes", len(t.raw), n, size)
	case t.raw == nil && t.dtype == onnxFloat && len(t.floats) != n:
		return fmt.Errorf("%d floats for %d values", len(t.floats), n)
	case t.raw == nil && t.dtype != onnxFloat && len(t.ints) != n:
		return fmt.Errorf("%d integers for %d values", len(t.ints), n)
	}
	return nil
}

// at returns value i widened to float64.
func (t *rawTensor) at(i int) float64 {
	if t.raw == nil {
		if t.dtype == onnxFloat {
			return float64(t.floats[i])
		}
		v := t.ints[i]
		if t.dtype == onnxInt8 {
			v = int64(int8(v))
		}
		return float64(v)
	}
	switch t.dtype {
	case onnxFloat:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(t.raw[4*i:])))
	case onnxUint8:
		return float64(t.raw[i])
	case onnxInt8:
		return float64(int8(t.raw[i]))
	case onnxInt32:
		return float64(int32(binary.LittleEndian.Uint32(t.raw[4*i:])))
	}
	return float64(int64(binary.LittleEndian.Uint64(t.raw[8*i:])))
}

// len is the number of values.
func (t *rawTensor) len() int { return numel(t.dims) }
