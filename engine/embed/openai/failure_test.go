package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestInvalidRepliesFailWithoutRetry(t *testing.T) {
	tests := []struct {
		name string
		body func(c call) string
		want string
	}{
		{"short reply", func(c call) string {
			rep := okReply(c.req, testDims)
			rep.Data = rep.Data[:1]
			return mustJSON(rep)
		}, "1 embeddings for 2 inputs"},
		{"malformed JSON", func(c call) string { return `{"object":"list","data":[{"index":0,` }, "malformed reply"},
		{"not JSON", func(c call) string { return `<html>gateway</html>` }, "malformed reply"},
		{"wrong dimensions", func(c call) string {
			rep := okReply(c.req, testDims)
			rep.Data[1].Embedding = rep.Data[1].Embedding[:3]
			return mustJSON(rep)
		}, "embedding 1: 3 dimensions, want 4"},
		{"NaN literal", func(c call) string {
			return `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[NaN,1,1,1]},{"object":"embedding","index":1,"embedding":[1,1,1,1]}]}`
		}, "malformed reply"},
		{"overflows float32", func(c call) string {
			return `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1e39,1,1,1]},{"object":"embedding","index":1,"embedding":[1,1,1,1]}]}`
		}, "malformed reply"},
		{"duplicate index", func(c call) string {
			rep := okReply(c.req, testDims)
			rep.Data[1].Index = 0
			return mustJSON(rep)
		}, "index 0 appears more than once"},
		{"index out of range", func(c call) string {
			rep := okReply(c.req, testDims)
			rep.Data[1].Index = 2
			return mustJSON(rep)
		}, "index 2 out of range"},
		{"missing index", func(c call) string {
			return `{"object":"list","data":[{"object":"embedding","embedding":[1,1,1,1]},{"object":"embedding","embedding":[1,2,1,1]}]}`
		}, "index 0 appears more than once"},
		{"zero vector", func(c call) string {
			rep := okReply(c.req, testDims)
			rep.Data[0].Embedding = make([]float32, testDims)
			return mustJSON(rep)
		}, "embedding 0: zero vector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tt.body(c))
			})
			e, sl := newTestEmbedder(t, srv.URL, nil)
			got, err := e.Embed(t.Context(), []string{"one", "two"})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			if got != nil {
				t.Errorf("got %d vectors with the error, want none", len(got))
			}
			if n := len(srv.Calls()); n != 1 {
				t.Errorf("server saw %d requests, want 1 (no retry)", n)
			}
			if len(sl.Durations()) != 0 {
				t.Errorf("slept %v", sl.Durations())
			}
		})
	}
}

func TestFailureDiscardsOtherBatches(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		if slices.Contains(c.req.Input, "bad") {
			writeAPIError(w, http.StatusBadRequest, "input rejected")
			return
		}
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) { c.BatchSize = 1; c.Concurrency = 1 })
	got, err := e.Embed(t.Context(), []string{"a", "b", "bad", "c"})
	if err == nil || got != nil {
		t.Fatalf("Embed = %d vectors, %v; want no vectors and an error", len(got), err)
	}
	for _, want := range []string{"inputs 2-2", "HTTP 400", "input rejected"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, want it to contain %q", err, want)
		}
	}
	if n := len(srv.Calls()); n != 3 {
		t.Errorf("server saw %d requests, want 3 (stop at the failure)", n)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
