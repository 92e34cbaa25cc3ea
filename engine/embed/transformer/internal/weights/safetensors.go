package weights

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// maxHeader bounds the JSON header of a safetensors file (the format's own
// limit is 100 MB).
const maxHeader = 100 << 20

type stEntry struct {
	Dtype   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

// ReadSafetensors decodes a safetensors file's float tensors. A "bert."
// prefix (BertForX checkpoints) is dropped; integer tensors (position_ids)
// are skipped.
func ReadSafetensors(b []byte) (Set, error) {
	if len(b) < 8 {
		return nil, fmt.Errorf("safetensors: file of %d bytes", len(b))
	}
	n := binary.LittleEndian.Uint64(b)
	if n > maxHeader || 8+n > uint64(len(b)) {
		return nil, fmt.Errorf("safetensors: header of %d bytes in a file of %d", n, len(b))
	}
	var hdr map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &hdr); err != nil {
		return nil, fmt.Errorf("safetensors: header: %w", err)
	}
	data := b[8+n:]
	set := Set{}
	for name, raw := range hdr {
		if name == "__metadata__" {
			continue
		}
		var e stEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("safetensors: tensor %s: %w", name, err)
		}
		t, err := stTensor(e, data)
		if err != nil {
			return nil, fmt.Errorf("safetensors: tensor %s: %w", name, err)
		}
		if t != nil {
			set[strings.TrimPrefix(name, "bert.")] = t
		}
	}
	return set, nil
}

func stTensor(e stEntry, data []byte) (*Tensor, error) {
	size := map[string]int{"F32": 4, "F16": 2, "BF16": 2}[e.Dtype]
	if size == 0 {
		return nil, nil // integer buffers are not weights
	}
	lo, hi := e.Offsets[0], e.Offsets[1]
	count := numel(e.Shape)
	if lo < 0 || hi < lo || hi > int64(len(data)) || hi-lo != int64(count*size) {
		return nil, fmt.Errorf("offsets %d..%d do not hold %d %s values in %d bytes", lo, hi, count, e.Dtype, len(data))
	}
	raw := data[lo:hi]
	out := make([]float32, count)
	for i := range out {
		switch e.Dtype {
		case "F32":
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		case "F16":
			out[i] = half(binary.LittleEndian.Uint16(raw[2*i:]))
		case "BF16":
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(raw[2*i:])) << 16)
		}
	}
	return &Tensor{Shape: e.Shape, Data: out}, nil
}

// half converts an IEEE 754 binary16 value.
func half(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: frac · 2⁻²⁴
		v := float32(frac) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
