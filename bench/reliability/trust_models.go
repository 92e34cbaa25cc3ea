package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/autorag/autorag/models"
)

// modelHub serves the files of an installed model the way the Hugging
// Face hub does (/{repo}/resolve/{revision}/{path}, Range honoured), with
// a fault: slow (the body in small steps, so pulls overlap), stallOnce
// (the first full answer of each file stops after 1,000 bytes and sends
// nothing more), stallAlways (every answer does).
type modelHub struct {
	files  map[string]string // URL path → file on disk
	mode   atomic.Value      // string
	ranges atomic.Int32
	mu     sync.Mutex
	seen   map[string]bool
}

func (h *modelHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path, ok := h.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Header.Get("Range") != "" {
		h.ranges.Add(1)
	}
	mode, _ := h.mode.Load().(string)
	h.mu.Lock()
	first := !h.seen[r.URL.Path]
	h.seen[r.URL.Path] = true
	h.mu.Unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	switch {
	case mode == "stallAlways" || (mode == "stallOnce" && first):
		w.Header().Set("Content-Length", fmt.Sprint(len(b)))
		w.Write(b[:min(1000, len(b))])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	case mode == "slow" && r.Header.Get("Range") == "":
		for i := 0; i < len(b); i += len(b)/20 + 1 {
			w.Write(b[i:min(i+len(b)/20+1, len(b))])
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond)
		}
	default:
		http.ServeContent(w, r, filepath.Base(path), time.Time{}, strings.NewReader(string(b)))
	}
}

// installedHubModel is the smallest hub model installed in the user's
// model cache, whose files the local hub serves.
func installedHubModel() (models.Model, string, bool) {
	dir, err := models.Dir()
	if err != nil {
		return models.Model{}, "", false
	}
	var best models.Model
	var size int64 = -1
	for _, m := range models.Catalog() {
		if _, err := models.Open(dir, m); err != nil || !m.OnHub() {
			continue
		}
		var n int64
		for _, f := range m.Files {
			n += f.Size
		}
		if size < 0 || n < size {
			best, size = m, n
		}
	}
	return best, filepath.Join(dir, best.Name), size >= 0
}

// modelPulls pulls a model from a local hub with faults: two pulls at
// once, a hub that stalls once and one that always stalls, and a model
// file damaged in place after its install (size and modification time put
// back), which a load must refuse naming the model and a pull must repair.
func (h *harness) modelPulls() outcome {
	o := outcome{Scenario: "models pull × (2 concurrent pulls, hub stalled after 1,000 bytes, hub always stalled, model file damaged in place after install with its size and mtime restored)"}
	m, src, ok := installedHubModel()
	if !ok {
		o.Skipped = "no hub model in the model cache to serve (autorag models pull all-minilm-l6-v2-q, or make models)"
		return o
	}
	hub := &modelHub{files: map[string]string{}, seen: map[string]bool{}}
	for _, f := range m.Files {
		hub.files["/"+m.Repo+"/resolve/"+m.Revision+"/"+f.HubPath] = filepath.Join(src, f.Name)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		o.fail("listen: %v", err)
		return o
	}
	srv := &http.Server{Handler: hub}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String()
	for round := range 3 {
		h.modelTrial(&o, hub, "slow", func(dir string, env []string) error { return h.concurrentPulls(m, dir, env) }, url, round)
	}
	h.modelTrial(&o, hub, "stallOnce", func(dir string, env []string) error { return h.stalledPull(m, dir, env, hub) }, url, 0)
	h.modelTrial(&o, hub, "stallAlways", func(dir string, env []string) error { return h.deadHub(m, env) }, url, 0)
	for _, damage := range []string{"flip", "zero"} {
		h.modelTrial(&o, hub, "", func(dir string, env []string) error { return h.damagedModel(m, dir, env, hub, damage) }, url, 0)
	}
	return o
}

// modelTrial runs one trial in a fresh model cache.
func (h *harness) modelTrial(o *outcome, hub *modelHub, mode string, f func(dir string, env []string) error, url string, round int) {
	o.Trials++
	hub.mode.Store(mode)
	hub.mu.Lock()
	hub.seen = map[string]bool{}
	hub.mu.Unlock()
	hub.ranges.Store(0)
	dir := filepath.Join(h.work, fmt.Sprintf("models-%s-%d-%d", mode, round, o.Trials))
	defer os.RemoveAll(dir)
	env := []string{"AUTORAG_MODELS_DIR=" + dir, "AUTORAG_HUB_URL=" + url}
	if err := f(dir, env); err != nil {
		o.fail("%s: %v", mode, err)
	}
}

func (h *harness) concurrentPulls(m models.Model, dir string, env []string) error {
	var wg sync.WaitGroup
	rs := make([]result, 2)
	for i := range rs {
		wg.Go(func() { rs[i] = h.cli.run(env, "models", "pull", m.Name) })
	}
	wg.Wait()
	for i, r := range rs {
		if r.code != 0 {
			return fmt.Errorf("pull %d of 2: %s", i, r)
		}
	}
	return h.modelUsable(m, dir, env)
}

func (h *harness) stalledPull(m models.Model, dir string, env []string, hub *modelHub) error {
	if r := h.cli.run(env, "models", "pull", "--idle-timeout", "500ms", m.Name); r.code != 0 {
		return fmt.Errorf("pull from a hub that stalls once: %s", r)
	}
	if hub.ranges.Load() == 0 {
		return fmt.Errorf("the stalled downloads were not resumed with Range")
	}
	return h.modelUsable(m, dir, env)
}

func (h *harness) deadHub(m models.Model, env []string) error {
	r := h.cli.run(env, "models", "pull", "--idle-timeout", "200ms", m.Name)
	if r.code == 0 || !strings.Contains(r.stderr+r.stdout, "stalled") {
		return fmt.Errorf("pull from a hub that always stalls: %s", r)
	}
	return nil
}

func (h *harness) damagedModel(m models.Model, dir string, env []string, hub *modelHub, damage string) error {
	if r := h.cli.run(env, "models", "pull", m.Name); r.code != 0 {
		return fmt.Errorf("pull: %s", r)
	}
	if err := h.modelUsable(m, dir, env); err != nil {
		return err
	}
	if err := damageInPlace(filepath.Join(dir, m.Name, m.Weights().Name), damage); err != nil {
		return err
	}
	root := filepath.Join(dir, "root")
	if err := os.WriteFile(filepath.Join(root, "b.md"), []byte("# Boats\nA heron rides the boat.\n"), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"query", "--mode", "vector", "heron"}, {"query", "heron"}, {"refresh"}} {
		r := h.cli.run(append(env, "AUTORAG_EMBEDDER=transformer", "AUTORAG_MODEL="+m.Name), append([]string{"--root", root}, args...)...)
		if r.code == 0 || !strings.Contains(r.stderr, m.Name) || !strings.Contains(r.stderr, "models pull") {
			return fmt.Errorf("%s weights used: %v: %s", damage, args, r)
		}
	}
	if r := h.cli.run(env, "models", "pull", m.Name); r.code != 0 {
		return fmt.Errorf("the repairing pull: %s", r)
	}
	return h.modelUsable(m, dir, env)
}

// damageInPlace overwrites bytes of path (flip: 64 bytes in the middle
// inverted; zero: the first 4 KiB zeroed) and puts its modification time
// back.
func damageInPlace(path, how string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	off, buf := fi.Size()/2, make([]byte, 64)
	if how == "zero" {
		off, buf = 0, make([]byte, 4096)
	} else if _, err := f.ReadAt(buf, off); err == nil {
		for i := range buf {
			buf[i] ^= 0xff
		}
	}
	_, err = f.WriteAt(buf, off)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Chtimes(path, fi.ModTime(), fi.ModTime())
}

// modelUsable checks that models list says the model is installed and a
// refresh embeds with it.
func (h *harness) modelUsable(m models.Model, dir string, env []string) error {
	r := h.cli.run(env, "--json", "models", "list")
	if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf(`"name":%q,"installed":true`, m.Name)) {
		return fmt.Errorf("models list: %s", r)
	}
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, "a.md"), []byte("# Herons\nThe heron fishes at dawn.\n"), 0o644); err != nil {
		return err
	}
	if r := h.cli.run(env, "--root", root, "refresh", "--embedder", "transformer", "--model", m.Name); r.code != 0 {
		return fmt.Errorf("refresh with the model: %s", r)
	}
	return nil
}
