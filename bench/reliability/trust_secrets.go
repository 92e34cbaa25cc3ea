package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// urlSecret marks every secret written into a URL here.
const urlSecret = "sk-urlsecret"

// rerankStub speaks text-embeddings-inference's /rerank and records the
// Authorization headers it receives.
type rerankStub struct {
	mu   sync.Mutex
	auth []string
}

func (s *rerankStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.mu.Unlock()
	var req struct{ Texts []string }
	if json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	type res struct {
		Index int     `json:"index"`
		Score float64 `json:"score"`
	}
	out := []res{}
	for i := range req.Texts {
		out = append(out, res{i, float64(i)})
	}
	json.NewEncoder(w).Encode(out)
}

func (s *rerankStub) sawAuth() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.auth {
		if a != "" {
			return true
		}
	}
	return false
}

// redirector answers every request with a 307 to target's same path.
func redirector(target string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
	}))
}

// urlSecrets puts secrets into every URL autorag takes (user-info and an
// api_key parameter) and looks for them everywhere it prints or stores a
// URL: query --explain, --json and errors with a reranker, every file
// under .autorag (the query cache), autorag config, models pull errors;
// and checks that a 307 to another origin never carries the key (the
// reranker, the embedding provider).
func (h *harness) urlSecrets() outcome {
	o := outcome{Scenario: "URLs with credentials (user-info, ?api_key=) × every place a URL is printed or stored (query --explain, --json, errors, the query cache, config, models pull), and a 307 to another origin (reranker, embedding provider)"}
	root := filepath.Join(h.work, "secrets-root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		o.fail("%v", err)
		return o
	}
	os.WriteFile(filepath.Join(root, "a.md"), []byte("# Herons\nThe heron fishes at dawn.\n"), 0o644)
	os.WriteFile(filepath.Join(root, "b.md"), []byte("# Boats\nA heron rides the boat.\n"), 0o644)
	if r := h.cli.run(nil, "--root", root, "refresh", "--embedder", "none"); r.code != 0 {
		o.fail("refresh: %s", r)
		return o
	}
	stub := &rerankStub{}
	srv := httptest.NewServer(stub)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	shown := func(what string, r result) {
		o.Trials++
		if strings.Contains(r.stdout+r.stderr, urlSecret) {
			o.fail("%s shows a secret: %s", what, r)
		}
	}
	for _, u := range []struct{ what, url string }{
		{"rerank", "http://user:" + urlSecret + "@" + host + "/rerank?api_key=" + urlSecret},
		{"unreachable rerank", "http://user:" + urlSecret + "@127.0.0.1:1/rerank?api_key=" + urlSecret},
	} {
		env := []string{"AUTORAG_RERANK_URL=" + u.url}
		shown(u.what+" query --explain", h.cli.run(env, "--root", root, "query", "--explain", "--rerank", "heron"))
		shown(u.what+" query --json", h.cli.run(env, "--root", root, "query", "--json", "--rerank", "heron"))
	}
	o.Trials++
	filepath.WalkDir(filepath.Join(root, ".autorag"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), urlSecret) {
				o.fail("%s stores a secret", p)
			}
		}
		return nil
	})
	oai := []string{"OPENAI_BASE_URL=http://u:" + urlSecret + "@127.0.0.1:1/v1", "OPENAI_API_KEY=sk-key"}
	shown("config", h.cli.run(oai, "--root", root, "config", "--embedder", "openai"))
	shown("config --json", h.cli.run(oai, "--root", root, "--json", "config", "--embedder", "openai"))
	hub := []string{"AUTORAG_HUB_URL=http://" + urlSecret + "@127.0.0.1:1", "AUTORAG_MODELS_DIR=" + filepath.Join(h.work, "secrets-models")}
	shown("models pull", h.cli.run(hub, "models", "pull", "all-minilm-l6-v2-q"))
	h.redirects(&o, root, srv.URL, stub)
	return o
}

// redirects sends the reranker's and the provider's requests through a
// 307 to another port: the key must not arrive there.
func (h *harness) redirects(o *outcome, root, rerankURL string, stub *rerankStub) {
	o.Trials++
	stub.mu.Lock()
	stub.auth = nil // the earlier queries sent their user-info to it directly
	stub.mu.Unlock()
	rd := redirector(rerankURL)
	defer rd.Close()
	env := []string{"AUTORAG_RERANK_URL=" + rd.URL + "/rerank", "AUTORAG_RERANK_API_KEY=" + urlSecret}
	if r := h.cli.run(env, "--root", root, "query", "--json", "--rerank", "heron"); r.code != 0 || stub.sawAuth() {
		o.fail("reranker redirected to another origin: %s; the other origin saw the key: %v", r, stub.sawAuth())
	}
	o.Trials++
	p := newFakeProvider()
	defer p.Close()
	prd := redirector(p.URL)
	defer prd.Close()
	penv := providerEnv(p)
	penv = append(penv, "OPENAI_BASE_URL="+prd.URL+"/v1")
	proot := filepath.Join(h.work, "secrets-provider")
	os.MkdirAll(proot, 0o755)
	os.WriteFile(filepath.Join(proot, "a.md"), []byte("# Herons\nThe heron fishes at dawn.\n"), 0o644)
	r := h.cli.run(penv, "--root", proot, "refresh")
	p.mu.Lock()
	defer p.mu.Unlock()
	for a := range p.auth {
		if a != "" {
			o.fail("the provider behind a 307 to another origin received %q (refresh %s)", a, r)
		}
	}
	if len(p.auth) == 0 {
		o.fail("the redirect was not followed: %s", r)
	}
	if len(o.Notes) == 0 {
		o.Notes = append(o.Notes, fmt.Sprintf("refresh through the provider's redirect: exit %d", r.code))
	}
}
