package openai

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// Servers differ in how they encode vectors: OpenAI and most servers send
// the float arrays that were asked for, some answer base64 (little-endian
// float32, OpenAI's "base64" encoding) whatever the request said. go-openai
// decodes only the encoding it asked for, so replies are brought to the
// float form before it sees them.

// replyData is the part of an embeddings reply that holds the vectors.
type replyData struct {
	Data []map[string]json.RawMessage `json:"data"`
}

// floatReply returns body with every base64 "embedding" replaced by its
// float array, or body itself when it has none (or is not a reply at all:
// go-openai then reports what is wrong with it).
func floatReply(body []byte) ([]byte, error) {
	if !bytes.Contains(body, []byte(`"embedding"`)) {
		return body, nil
	}
	var top map[string]json.RawMessage
	var rd replyData
	if json.Unmarshal(body, &top) != nil || json.Unmarshal(body, &rd) != nil {
		return body, nil
	}
	changed := false
	for i, d := range rd.Data {
		raw := bytes.TrimSpace(d["embedding"])
		if len(raw) == 0 || raw[0] != '"' {
			continue
		}
		vec, err := decodeBase64Vector(raw)
		if err != nil {
			return nil, fmt.Errorf("embedding %d: %w", i, err)
		}
		if d["embedding"], err = json.Marshal(vec); err != nil {
			return nil, err
		}
		changed = true
	}
	if !changed {
		return body, nil
	}
	data, err := json.Marshal(rd.Data)
	if err != nil {
		return nil, err
	}
	top["data"] = data
	return json.Marshal(top)
}

// decodeBase64Vector decodes a JSON string holding base64 of little-endian
// float32 values.
func decodeBase64Vector(raw json.RawMessage) ([]float32, error) {
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
	}
	return v, nil
}
