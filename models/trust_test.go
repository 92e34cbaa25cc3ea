package models

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowHub serves like hub, but each answer's body only after release is
// closed (a download in flight), so that pulls overlap.
type slowHub struct {
	*hub
	release chan struct{}
}

func (s *slowHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/octet-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	<-s.release
	body := s.files[r.URL.Path]
	s.requests.Add(1)
	w.Write([]byte(body))
}

// TestConcurrentPullsInstallOneModel: two pulls of one model at once:
// both succeed and the model is installed and intact (the second waits
// for the first and finds its files).
func TestConcurrentPullsInstallOneModel(t *testing.T) {
	for trial := range 3 {
		m := fakeModel(t, weights, tokenizer)
		h, _ := newHub(t, m, weights)
		s := &slowHub{hub: h, release: make(chan struct{})}
		srv := httptest.NewServer(s)
		dir := t.TempDir()
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			wg.Go(func() { errs[i] = (&Puller{Hub: srv.URL}).Pull(context.Background(), dir, m) })
		}
		time.Sleep(50 * time.Millisecond) // let both reach the hub, or the lock
		close(s.release)
		wg.Wait()
		srv.Close()
		for i, err := range errs {
			if err != nil {
				t.Errorf("trial %d: pull %d: %v", trial, i, err)
			}
		}
		if _, err := Open(dir, m); err != nil {
			t.Errorf("trial %d: after two pulls: %v", trial, err)
		}
		if n := s.requests.Load(); n != 2 {
			t.Errorf("trial %d: %d downloads, want 2 (one per file: the second pull reuses the first's)", trial, n)
		}
	}
}

// stallHub serves like hub, but a full answer stops after stall bytes
// and then sends nothing until the client hangs up; ranged answers are
// whole.
type stallHub struct {
	*hub
	stall  int
	always bool // ranged answers stall too
}

func (s *stallHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := s.files[r.URL.Path]
	if r.Header.Get("Range") != "" && !s.always || len(body) <= s.stall {
		s.hub.ServeHTTP(w, r)
		return
	}
	s.requests.Add(1)
	w.Header().Set("Content-Length", "100000")
	w.Write([]byte(body[:s.stall]))
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

// TestPullResumesAStalledDownload: a hub that stops sending mid-file is
// given up on after the idle timeout and the download resumes with a
// Range request.
func TestPullResumesAStalledDownload(t *testing.T) {
	m := fakeModel(t, weights, tokenizer)
	h, _ := newHub(t, m, weights)
	srv := httptest.NewServer(&stallHub{hub: h, stall: 20})
	defer srv.Close()
	dir := t.TempDir()
	p := &Puller{Hub: srv.URL, IdleTimeout: 100 * time.Millisecond}
	if err := p.Pull(context.Background(), dir, m); err != nil {
		t.Fatal(err)
	}
	if len(h.ranges) != 2 || h.ranges[0] != "bytes=20-" || h.ranges[1] != "bytes=20-" {
		t.Errorf("ranges %v, want one resume from byte 20 per file", h.ranges)
	}
	if _, err := Open(dir, m); err != nil {
		t.Fatal(err)
	}
}

// TestPullGivesUpOnAHubThatAlwaysStalls: no endless hang: a clear error
// that says the hub stalled and how to resume.
func TestPullGivesUpOnAHubThatAlwaysStalls(t *testing.T) {
	m := fakeModel(t, weights, tokenizer)
	h, _ := newHub(t, m, weights)
	srv := httptest.NewServer(&stallHub{hub: h, stall: 0, always: true})
	defer srv.Close()
	p := &Puller{Hub: srv.URL, IdleTimeout: 50 * time.Millisecond}
	err := p.Pull(context.Background(), t.TempDir(), m)
	if err == nil || !strings.Contains(err.Error(), "stalled") || !strings.Contains(err.Error(), "resume") {
		t.Fatalf("pull from a stalling hub: %v", err)
	}
}

// TestOpenVerifiesAFileDamagedInPlace: a model file overwritten with its
// size and modification time restored is caught by its sha256 at Open,
// with an error naming the model; a pull repairs it. An intact file is
// hashed once per identity, not at every Open.
func TestOpenVerifiesAFileDamagedInPlace(t *testing.T) {
	m := fakeModel(t, weights, tokenizer)
	_, srv := newHub(t, m, weights)
	dir := t.TempDir()
	p := &Puller{Hub: srv.URL}
	if err := p.Pull(context.Background(), dir, m); err != nil {
		t.Fatal(err)
	}
	before := hashes.Load()
	for range 3 {
		if _, err := Open(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	if n := hashes.Load() - before; n != 0 {
		t.Errorf("%d files hashed by Opens of a model just installed, want 0", n)
	}
	path := filepath.Join(dir, "tiny", "model.onnx")
	fi, _ := os.Stat(path)
	if err := os.WriteFile(path, []byte(strings.ToUpper(weights)), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	_, err := Open(dir, m)
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "tiny") || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("Open of a damaged file: %v", err)
	}
	if st, _ := List(dir); st[0].Installed {
		t.Error("List says the damaged model is installed")
	}
	if err := p.Pull(context.Background(), dir, m); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, m); err != nil {
		t.Fatalf("after the repairing pull: %v", err)
	}
}

// TestOldStampVerifiedOnce: a stamp written before identities were
// recorded is verified by hashing once (by a pull or a load), and the
// loads after hash nothing.
func TestOldStampVerifiedOnce(t *testing.T) {
	m := fakeModel(t, weights, tokenizer)
	h, srv := newHub(t, m, weights)
	dir := t.TempDir()
	p := &Puller{Hub: srv.URL}
	if err := p.Pull(context.Background(), dir, m); err != nil {
		t.Fatal(err)
	}
	md := filepath.Join(dir, "tiny")
	strip := func() {
		st, err := readStamp(md)
		if err != nil {
			t.Fatal(err)
		}
		for name, f := range st.Files {
			f.identity = identity{}
			st.Files[name] = f
		}
		if err := st.write(md); err != nil {
			t.Fatal(err)
		}
	}
	for _, verify := range []func() error{
		func() error { return p.Pull(context.Background(), dir, m) },
		func() error { _, err := Open(dir, m); return err },
	} {
		strip()
		n := h.requests.Load()
		if err := verify(); err != nil {
			t.Fatal(err)
		}
		if h.requests.Load() != n {
			t.Error("an intact model was downloaded again")
		}
		before := hashes.Load()
		if _, err := Open(dir, m); err != nil {
			t.Fatal(err)
		}
		if d := hashes.Load() - before; d != 0 {
			t.Errorf("%d files hashed again after their verification was recorded", d)
		}
	}
}
