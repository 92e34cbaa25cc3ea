package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"time"
)

// providerKey is the API key of the provider scenarios: it must never
// appear in any output.
const providerKey = "sk-reliability-S3CRET-7f3a9c"

// fault is how the fake provider misbehaves once it has answered `after`
// requests of a run well.
type fault struct {
	name  string
	after int
	serve func(w http.ResponseWriter, r *http.Request, in []string)
}

// fakeProvider speaks the OpenAI embeddings wire format on loopback.
type fakeProvider struct {
	*httptest.Server
	mu      sync.Mutex
	fault   *fault
	served  int                 // requests since the fault was set
	inputs  map[string]int      // inputs received, by text, since reset
	arrived chan struct{}       // a request arrived (for SIGINT)
	auth    map[string]struct{} // Authorization headers seen
}

const providerDims = 8

func providerVector(text string) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	sum := h.Sum64()
	v := make([]float32, providerDims)
	for j := range v {
		v[j] = float32(1+(sum>>(8*(j%8)))&0xff) - 128
	}
	return v
}

func newFakeProvider() *fakeProvider {
	p := &fakeProvider{inputs: map[string]int{}, arrived: make(chan struct{}, 1), auth: map[string]struct{}{}}
	p.Server = httptest.NewServer(http.HandlerFunc(p.handle))
	return p
}

func (p *fakeProvider) handle(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input []string `json:"input"`
		Model string   `json:"model"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || r.URL.Path != "/v1/embeddings" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	p.auth[r.Header.Get("Authorization")] = struct{}{}
	f := p.fault
	n := p.served
	p.served++
	p.mu.Unlock()
	select {
	case p.arrived <- struct{}{}:
	default:
	}
	if f != nil && n >= f.after {
		f.serve(w, r, req.Input)
		return
	}
	p.mu.Lock()
	for _, in := range req.Input {
		p.inputs[in]++
	}
	p.mu.Unlock()
	writeEmbeddings(w, req.Input, req.Model)
}

func writeEmbeddings(w http.ResponseWriter, inputs []string, model string) {
	type emb struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	data := make([]emb, len(inputs))
	for i, in := range inputs {
		data[i] = emb{"embedding", i, providerVector(in)}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": model,
		"usage": map[string]int{"prompt_tokens": len(inputs), "total_tokens": len(inputs)}})
}

// set installs a fault (nil: healthy) and forgets the inputs seen.
func (p *fakeProvider) set(f *fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fault, p.served, p.inputs = f, 0, map[string]int{}
	select {
	case <-p.arrived:
	default:
	}
}

func (p *fakeProvider) seen() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]int, len(p.inputs))
	for k, v := range p.inputs {
		out[k] = v
	}
	return out
}

// faults are the failure classes a provider shows in practice.
func faults() []*fault {
	apiError := func(status int, msg string) func(w http.ResponseWriter, r *http.Request, in []string) {
		return func(w http.ResponseWriter, r *http.Request, in []string) {
			w.Header().Set("Content-Type", "application/json")
			if status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "0")
			}
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":{"message":%q,"type":"server_error","code":null}}`, msg)
		}
	}
	return []*fault{
		{name: "429 storm", serve: apiError(http.StatusTooManyRequests, "rate limit reached for "+providerKey)},
		{name: "500 after a good batch", after: 1, serve: apiError(http.StatusInternalServerError, "internal error")},
		{name: "503", serve: apiError(http.StatusServiceUnavailable, "overloaded")},
		{name: "401 echoing the key", serve: apiError(http.StatusUnauthorized, "Incorrect API key provided: "+providerKey)},
		{name: "timeouts", after: 1, serve: func(w http.ResponseWriter, r *http.Request, in []string) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}},
		{name: "malformed JSON", after: 1, serve: func(w http.ResponseWriter, r *http.Request, in []string) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,`))
		}},
		{name: "wrong count of vectors", serve: func(w http.ResponseWriter, r *http.Request, in []string) {
			writeEmbeddings(w, in[:len(in)/2], "fake-embed")
		}},
		{name: "wrong dimensions", serve: func(w http.ResponseWriter, r *http.Request, in []string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"object":"list","data":[`)
			for i := range in {
				if i > 0 {
					fmt.Fprint(w, ",")
				}
				fmt.Fprintf(w, `{"object":"embedding","index":%d,"embedding":[0.5,0.5,0.5]}`, i)
			}
			fmt.Fprint(w, `],"model":"fake-embed"}`)
		}},
		{name: "connection reset", after: 1, serve: func(w http.ResponseWriter, r *http.Request, in []string) {
			hj, ok := w.(http.Hijacker)
			if !ok {
				return
			}
			conn, _, err := hj.Hijack()
			if err != nil {
				return
			}
			if tc, ok := conn.(*net.TCPConn); ok {
				tc.SetLinger(0) // RST instead of FIN
			}
			conn.Close()
		}},
	}
}

// providerEnv configures the CLI for p: small batches one at a time, so a
// fault lands mid-refresh, and a short timeout.
func providerEnv(p *fakeProvider) []string {
	return []string{
		"AUTORAG_EMBEDDER=openai", "OPENAI_BASE_URL=" + p.URL + "/v1", "OPENAI_API_KEY=" + providerKey,
		"OPENAI_EMBEDDING_MODEL=fake-embed", fmt.Sprintf("OPENAI_EMBEDDING_DIMENSIONS=%d", providerDims),
		"OPENAI_EMBEDDING_BATCH_SIZE=16", "OPENAI_EMBEDDING_CONCURRENCY=1", "OPENAI_EMBEDDING_TIMEOUT=1s",
	}
}

// leaks reports whether output shows the key or an Authorization header.
func leaks(s string) bool {
	return strings.Contains(s, providerKey) || strings.Contains(s, "Bearer") || strings.Contains(s, "S3CRET")
}

// providerFaults refreshes a changed corpus with the OpenAI-compatible
// embedder against each fault class (and once interrupted with SIGINT
// mid-batch): the refresh fails (exit 3, or 130), the committed index is
// served untouched, the key never shows, and once the provider is healthy
// the next refresh embeds only what a healthy refresh would have (nothing
// already cached) and answers exactly like a fresh build.
func (h *harness) providerFaults(files int, only func(name string) bool) outcome {
	o := outcome{Scenario: "provider faults (OpenAI wire format on loopback): 9 failure classes + SIGINT mid-batch"}
	p := newFakeProvider()
	defer p.Close()
	pc := &cli{bin: h.cli.bin, env: providerEnv(p), probes: h.cli.probes}
	ph := &harness{cli: pc, work: h.work, log: h.log, seed: h.seed + 1}
	t, err := ph.newCommitted("provider", files)
	if err != nil {
		o.fail("setup: %v", err)
		return o
	}
	// The control: the same change refreshed against a healthy provider
	// sends exactly the chunks that are missing from the cache.
	root, c, err := ph.trialRoot(t, 31)
	if err == nil {
		err = c.mutate(20)
	}
	if err != nil {
		o.fail("setup: %v", err)
		return o
	}
	p.set(nil)
	if r := pc.run(nil, "--root", root, "refresh", "-q"); r.code != 0 {
		o.fail("control refresh: %s", r)
		return o
	}
	missing := p.seen()
	want, err := pc.observe(root)
	if err == nil {
		var ref snapshot
		if ref, err = pc.reference(root, h.work); err == nil && !ref.equal(want) {
			err = fmt.Errorf("the healthy incremental refresh does not answer like a fresh build")
		}
	}
	if err != nil {
		o.fail("control: %v", err)
		return o
	}
	for _, f := range append(faults(), &fault{name: "SIGINT mid-batch"}) {
		if only != nil && !only(f.name) {
			continue
		}
		o.Trials++
		if err := ph.providerTrial(t, p, f, missing, want); err != nil {
			o.fail("%s: %v", f.name, err)
		}
	}
	p.mu.Lock()
	for a := range p.auth {
		if a != "Bearer "+providerKey {
			o.fail("the provider saw Authorization %q", a)
		}
	}
	p.mu.Unlock()
	o.note("a healthy refresh of the change embeds %d chunk texts; after every fault the next refresh sent none that was already cached", len(missing))
	return o
}

func (h *harness) providerTrial(t *committed, p *fakeProvider, f *fault, missing map[string]int, want snapshot) error {
	root, c, err := h.trialRoot(t, 31)
	if err == nil {
		err = c.mutate(20)
	}
	if err != nil {
		return err
	}
	var r result
	if f.serve == nil { // SIGINT once the first request is in flight
		p.set(&fault{name: f.name, serve: func(w http.ResponseWriter, r *http.Request, in []string) {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}})
		s, err := h.cli.start(nil, "--root", root, "refresh", "--json", "-v")
		if err != nil {
			return err
		}
		select {
		case <-p.arrived:
		case <-time.After(30 * time.Second):
		}
		_ = s.cmd.Process.Signal(syscall.SIGINT)
		r = s.wait()
		if r.code != 130 {
			return fmt.Errorf("interrupted refresh: want exit 130, got %s", r)
		}
	} else {
		p.set(f)
		r = h.cli.run(nil, "--root", root, "refresh", "--json", "-v")
		if r.code != 3 {
			return fmt.Errorf("refresh against a failing provider: want exit 3, got %s", r)
		}
	}
	if leaks(r.stdout + r.stderr) {
		return fmt.Errorf("the API key or Authorization header shows in the output: %s", r)
	}
	p.set(nil)
	if _, err := h.cli.checkServing(root, t.old, want); err != nil {
		return fmt.Errorf("after the fault: %w", err)
	}
	p.set(nil)
	if r := h.cli.run(nil, "--root", root, "refresh", "--json", "-v"); r.code != 0 || leaks(r.stdout+r.stderr) {
		return fmt.Errorf("recovery refresh: %s", r)
	}
	for in := range p.seen() {
		if _, ok := missing[in]; !ok {
			return fmt.Errorf("the recovery refresh embedded a chunk that was cached already: %.60q", in)
		}
	}
	got, err := h.cli.observe(root)
	if err != nil {
		return err
	}
	if !got.equal(want) {
		return fmt.Errorf("after recovery the index does not answer like a healthy build (embedding cache poisoned?)")
	}
	return checkNoGarbage(root)
}
