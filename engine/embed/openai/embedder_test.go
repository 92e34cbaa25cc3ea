package openai

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/autorag/autorag/engine/embed"
)

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("text number %d", i)
	}
	return out
}

func checkVectors(t *testing.T, in []string, got [][]float32, dims int) {
	t.Helper()
	if len(got) != len(in) {
		t.Fatalf("got %d vectors for %d texts", len(got), len(in))
	}
	for i, v := range got {
		if diff := cmp.Diff(unit(testVector(in[i], dims)), v); diff != "" {
			t.Errorf("vector %d (-want +got):\n%s", i, diff)
		}
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		if math.Abs(s-1) > 1e-5 {
			t.Errorf("vector %d has squared norm %v, want 1", i, s)
		}
	}
}

func TestEmbedBatchesPreserveOrder(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		rep := okReply(c.req, testDims)
		slices.Reverse(rep.Data) // out of index order on purpose
		writeJSON(w, http.StatusOK, rep)
	})
	var (
		mu       sync.Mutex
		progress [][2]int
	)
	e, _ := newTestEmbedder(t, srv.URL+"/v1", func(c *Config) {
		c.BatchSize = 3
		c.Concurrency = 2
		c.Progress = func(done, total int) {
			mu.Lock()
			progress = append(progress, [2]int{done, total})
			mu.Unlock()
		}
	})
	in := texts(10)
	if got := e.Batches(in); got != 4 {
		t.Errorf("Batches = %d, want 4", got)
	}
	got, err := e.Embed(t.Context(), in)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	checkVectors(t, in, got, testDims)

	calls := srv.Calls()
	if len(calls) != 4 {
		t.Fatalf("server saw %d requests, want 4", len(calls))
	}
	var sent []string
	var sizes []int
	for _, c := range calls {
		if c.auth != "Bearer "+testKey {
			t.Errorf("Authorization = %q", c.auth)
		}
		if c.path != "/v1/embeddings" {
			t.Errorf("path = %q, want /v1/embeddings", c.path)
		}
		if c.req.Model != "test-model" || c.req.EncodingFormat != "float" {
			t.Errorf("model %q, encoding_format %q", c.req.Model, c.req.EncodingFormat)
		}
		if c.req.Dimensions != nil {
			t.Errorf("dimensions sent to a model outside the text-embedding-3 family: %d", *c.req.Dimensions)
		}
		sent = append(sent, c.req.Input...)
		sizes = append(sizes, len(c.req.Input))
	}
	slices.Sort(sent)
	want := slices.Clone(in)
	slices.Sort(want)
	if diff := cmp.Diff(want, sent); diff != "" {
		t.Errorf("inputs sent (-want +got):\n%s", diff)
	}
	slices.Sort(sizes)
	if diff := cmp.Diff([]int{1, 3, 3, 3}, sizes); diff != "" {
		t.Errorf("batch sizes (-want +got):\n%s", diff)
	}
	if len(progress) != 4 || progress[3] != [2]int{10, 10} {
		t.Errorf("progress = %v, want 4 calls ending at 10/10", progress)
	}
	for i := 1; i < len(progress); i++ {
		if progress[i][0] <= progress[i-1][0] {
			t.Errorf("progress not increasing: %v", progress)
		}
	}
}

func TestEmbedNoTexts(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	})
	e, _ := newTestEmbedder(t, srv.URL, nil)
	got, err := e.Embed(t.Context(), nil)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("Embed(nil) = %v, %v; want empty, nil", got, err)
	}
	if _, err := e.Embed(t.Context(), []string{"a", ""}); err == nil || !strings.Contains(err.Error(), "text 1 is empty") {
		t.Errorf("Embed with an empty text: err = %v", err)
	}
	if n := len(srv.Calls()); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}

func TestDimensionsField(t *testing.T) {
	tests := []struct {
		model string
		dims  int
		want  *int // dimensions in the request
	}{
		{"text-embedding-3-small", 4, ptr(4)},
		{"text-embedding-3-large", 4, ptr(4)},
		{"nomic-embed-text", 4, nil},
		{"text-embedding-ada-002", 4, nil},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
				writeJSON(w, http.StatusOK, okReply(c.req, tt.dims))
			})
			e, _ := newTestEmbedder(t, srv.URL, func(c *Config) {
				c.Model, c.Dimensions, c.MaxInputTokens = tt.model, tt.dims, DefaultMaxInputTokens
			})
			if _, err := e.Embed(t.Context(), []string{"x"}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, srv.Calls()[0].req.Dimensions); diff != "" {
				t.Errorf("dimensions (-want +got):\n%s", diff)
			}
			want := embed.Identity{Provider: "openai", Model: tt.model, Dims: tt.dims}
			if got := e.Identity(); got != want {
				t.Errorf("Identity = %v, want %v", got, want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestTokenBudgetSplitsBatches(t *testing.T) {
	srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
		writeJSON(w, http.StatusOK, okReply(c.req, testDims))
	})
	e, _ := newTestEmbedder(t, srv.URL, func(c *Config) {
		c.BatchSize = 100
		c.MaxBatchTokens = 10
		c.Concurrency = 1
	})
	// Estimated tokens: 4, 4, 3, 1, 10, 12 (split into 10 and 2), 2.
	in := []string{
		strings.Repeat("a", 16),
		strings.Repeat("b", 13),
		strings.Repeat("c", 12),
		"d",
		strings.Repeat("e", 40),
		strings.Repeat("f", 45),
		"gg gg",
	}
	if got := e.Batches(in); got != 5 {
		t.Errorf("Batches = %d, want 5", got)
	}
	got, err := e.Embed(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	var batches [][]int
	for _, c := range srv.Calls() {
		var lens []int
		for _, s := range c.req.Input {
			lens = append(lens, len(s))
		}
		batches = append(batches, lens)
	}
	if diff := cmp.Diff([][]int{{16, 13}, {12, 1}, {40}, {40}, {5, 5}}, batches); diff != "" {
		t.Errorf("batches by input length (-want +got):\n%s", diff)
	}
	if len(got) != len(in) {
		t.Fatalf("got %d vectors", len(got))
	}
	// The split text's vector is the mean of its pieces' unit vectors,
	// weighted by length (40 and 5 bytes), normalized.
	a, b := unit(testVector(in[5][:40], testDims)), unit(testVector(in[5][40:], testDims))
	mean := make([]float32, testDims)
	for j := range mean {
		mean[j] = 40*a[j] + 5*b[j]
	}
	if diff := cmp.Diff(unit(mean), got[5], cmpopts.EquateApprox(0, 1e-6)); diff != "" {
		t.Errorf("split text vector (-want +got):\n%s", diff)
	}
}

func TestBaseURLTrailingSlash(t *testing.T) {
	for _, suffix := range []string{"/v1", "/v1/", "/v1//"} {
		t.Run(suffix, func(t *testing.T) {
			srv := newFakeServer(t, func(w http.ResponseWriter, r *http.Request, c call) {
				writeJSON(w, http.StatusOK, okReply(c.req, testDims))
			})
			e, _ := newTestEmbedder(t, srv.URL+suffix, nil)
			in := []string{"hello"}
			got, err := e.Embed(t.Context(), in)
			if err != nil {
				t.Fatal(err)
			}
			checkVectors(t, in, got, testDims)
			if p := srv.Calls()[0].path; p != "/v1/embeddings" {
				t.Errorf("path = %q, want /v1/embeddings", p)
			}
		})
	}
}
