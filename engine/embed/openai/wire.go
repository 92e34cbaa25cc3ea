package openai

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Servers differ in how they encode vectors: OpenAI and most servers send
// the float arrays that were asked for, some answer base64 (little-endian
// float32, OpenAI's "base64" encoding) whatever the request said. go-openai
// decodes only the encoding it asked for, so replies are brought to the
// float form before it sees them.

// floatReply returns body with every base64 "embedding" string replaced
// by its float array, or body itself when it has none. It rewrites bytes
// in place of parsing and re-encoding the reply: a float reply costs one
// scan, a base64 one a scan and the formatting of its numbers. What is not
// a reply at all is left for go-openai to report.
func floatReply(body []byte) ([]byte, error) {
	key := []byte(`"embedding"`)
	var out []byte // nil until the first replacement
	last, pos := 0, 0
	for {
		i := bytes.Index(body[pos:], key)
		if i < 0 {
			break
		}
		pos += i + len(key)
		k := skipSpace(body, pos)
		if k == len(body) || body[k] != ':' {
			continue
		}
		k = skipSpace(body, k+1)
		if k == len(body) || body[k] != '"' {
			continue
		}
		end := stringEnd(body, k)
		if end < 0 {
			return body, nil
		}
		vec, err := decodeBase64Vector(body[k:end])
		if err != nil {
			return nil, err
		}
		out = appendFloats(append(out, body[last:k]...), vec)
		last, pos = end, end
	}
	if out == nil {
		return body, nil
	}
	return append(out, body[last:]...), nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// stringEnd is the index just past the JSON string starting at b[start]
// (a quote), or -1 when it does not end.
func stringEnd(b []byte, start int) int {
	for i := start + 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// appendFloats appends v as a JSON array.
func appendFloats(out []byte, v []float32) []byte {
	out = append(out, '[')
	for i, x := range v {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendFloat(out, float64(x), 'g', -1, 32)
	}
	return append(out, ']')
}

// decodeBase64Vector decodes a JSON string holding base64 of little-endian
// float32 values.
func decodeBase64Vector(raw []byte) ([]float32, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("base64 vector: %w", err)
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("base64 vector of %d bytes is not float32 values", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		if f := float64(v[i]); math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("base64 vector: value %d is not finite", i)
		}
	}
	return v, nil
}
