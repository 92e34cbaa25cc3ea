package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"
)

// rerankFaults are the ways the fake rerank service fails: an error
// status, no answer within the client's timeout, and answers that are not
// one score per passage.
var rerankFaults = []string{"error 503", "timeout", "garbage: text", "garbage: scores as strings", "garbage: index out of range",
	"garbage: too few scores", "garbage: huge body"}

// rerankService is a loopback /rerank endpoint in TEI's wire format that
// answers as its mode says: "ok" scores every passage by its position
// from the end (an order unlike the fused one), any fault fails.
type rerankService struct {
	mode atomic.Value
	url  string
	srv  *http.Server
}

func startRerankService() (*rerankService, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &rerankService{url: "http://" + ln.Addr().String() + "/rerank"}
	s.mode.Store("ok")
	s.srv = &http.Server{Handler: http.HandlerFunc(s.answer), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

func (s *rerankService) close() { s.srv.Close() }

func (s *rerankService) answer(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Texts []string `json:"texts"`
	}
	if json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, `{"error":"Input validation error"}`, http.StatusUnprocessableEntity)
		return
	}
	n := len(req.Texts)
	switch s.mode.Load().(string) {
	case "error 503":
		http.Error(w, `{"error":"Model is overloaded","error_type":"overloaded"}`, http.StatusServiceUnavailable)
	case "timeout":
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	case "garbage: text":
		io.WriteString(w, "<html>502 Bad Gateway</html>")
	case "garbage: scores as strings":
		io.WriteString(w, `[{"index":0,"score":"NaN"}]`)
	case "garbage: index out of range":
		fmt.Fprintf(w, `[{"index":%d,"score":1}]`, n+5)
	case "garbage: too few scores":
		io.WriteString(w, `[{"index":0,"score":0.5}]`)
	case "garbage: huge body":
		w.Write([]byte(`[{"index":0,"score":0.5,"pad":"`))
		w.Write(bytes.Repeat([]byte("x"), 20<<20))
	default:
		type res struct {
			Index int     `json:"index"`
			Score float64 `json:"score"`
		}
		out := make([]res, n)
		for i := range out {
			out[i] = res{i, float64(i) - float64(n)} // negative, like a cross-encoder's logits
		}
		json.NewEncoder(w).Encode(out)
	}
}

// rerankAnswer is what the surfaces answer, as far as this row checks.
type rerankAnswer struct {
	OK          bool   `json:"ok"`
	Reranked    *bool  `json:"reranked"`
	RerankError string `json:"rerank_error"`
	Results     []struct {
		Root   string `json:"root"`
		Path   string `json:"path"`
		Scores struct {
			Rerank *float64 `json:"rerank"`
		} `json:"scores"`
	} `json:"results"`
	Roots []struct {
		OK       bool  `json:"ok"`
		Reranked *bool `json:"reranked"`
	} `json:"roots"`
}

// rerankRoots makes two refreshed roots of generated notes.
func (h *harness) rerankRoots(o *outcome) (roots []string, done func(), ok bool) {
	parent, err := os.MkdirTemp(h.work, "rerank-")
	if err != nil {
		o.fail("setup: %v", err)
		return nil, nil, false
	}
	done = func() { os.RemoveAll(parent) }
	for i, name := range []string{"a", "b"} {
		root := filepath.Join(parent, name)
		if _, err := newCorpus(root, 40, h.seed+uint64(i)); err != nil {
			o.fail("setup: %v", err)
			return nil, done, false
		}
		if r := h.cli.run(nil, "--root", root, "refresh", "-q"); r.code != 0 {
			o.fail("setup: refresh %s: %s", name, r)
			return nil, done, false
		}
		roots = append(roots, root)
	}
	return roots, done, true
}
