package openai

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"
)

// replyBody is a 64-input reply of 768-dimensional vectors as JSON, in
// base64 or float form.
func replyBody(b *testing.B, base64 bool) []byte {
	b.Helper()
	req := wireRequest{Input: texts(64), Model: "m"}
	if base64 {
		req.EncodingFormat = "base64"
	}
	rec := httptest.NewRecorder()
	ollamaReply(rec, req, 768, base64)
	return rec.Body.Bytes()
}

// TestFloatReplyDecodesBase64 checks that a base64 reply becomes the
// float reply of the same vectors, and that a float reply is left alone.
func TestFloatReplyDecodesBase64(t *testing.T) {
	req := wireRequest{Input: texts(3), Model: "m"}
	b64, floats := httptest.NewRecorder(), httptest.NewRecorder()
	ollamaReply(b64, req, 5, true)
	ollamaReply(floats, req, 5, false)
	got, err := floatReply(b64.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var a, want map[string]any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal(floats.Body.Bytes(), &want) != nil {
		t.Fatalf("not JSON: %s", got)
	}
	if ga, _ := json.Marshal(a); !bytes.Equal(ga, mustMarshal(t, want)) {
		t.Errorf("decoded base64 reply\n%s\nwant\n%s", ga, mustMarshal(t, want))
	}
	same, err := floatReply(floats.Body.Bytes())
	if err != nil || !bytes.Equal(same, floats.Body.Bytes()) {
		t.Errorf("a float reply was rewritten (err %v)", err)
	}
	if _, err := floatReply([]byte(`{"data":[{"embedding":"!!!"}]}`)); err == nil {
		t.Error("bad base64 accepted")
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func BenchmarkFloatReply(b *testing.B) {
	for _, enc := range []struct {
		name   string
		base64 bool
	}{{"float", false}, {"base64", true}} {
		body := replyBody(b, enc.base64)
		b.Run(enc.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := floatReply(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
