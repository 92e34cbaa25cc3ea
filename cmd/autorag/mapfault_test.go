package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/fingerprint"
)

// damageMapped damages every file of root's committed generation that a
// server maps (the bleve segments and the vector files) the way how says:
// "truncated" to zero bytes, "zeroed" (same size, every byte 0) or
// "removed". It returns how many files it damaged.
func damageMapped(t *testing.T, root, how string) int {
	t.Helper()
	sc, err := fingerprint.ReadSidecar(filepath.Join(root, ".autorag", "fingerprint.json"))
	if err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(root, ".autorag", "index", sc.Generation)
	n := 0
	err = filepath.Walk(gen, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || !mappedFile(p) {
			return err
		}
		n++
		switch how {
		case "truncated":
			return os.Truncate(p, 0)
		case "zeroed":
			return os.WriteFile(p, make([]byte, fi.Size()), 0o600)
		case "removed":
			return os.Remove(p)
		}
		return fmt.Errorf("damage %q?", how)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// mappedFile reports whether p is a file a server maps: a bleve segment or
// a vector segment.
func mappedFile(p string) bool {
	return strings.HasSuffix(p, ".zap") || strings.Contains(filepath.ToSlash(p), "/vectors/")
}

// TestDamagedMappedRootLeavesOthersAnswering: a server of two roots maps
// both roots' segments; when root B's mapped files are truncated, zeroed
// or removed under it, B's searches fail as B's own error (damaged: the
// files no longer match the sidecar) and A keeps answering: the process
// never dies of the fault (SIGBUS on a truncated mapping). A refresh of B
// brings it back.
func TestDamagedMappedRootLeavesOthersAnswering(t *testing.T) {
	for _, how := range []string{"truncated", "zeroed", "removed"} {
		t.Run(how, func(t *testing.T) {
			parent := t.TempDir()
			a, b := filepath.Join(parent, "alpha"), filepath.Join(parent, "beta")
			for i := range 30 {
				writeFile(t, a, fmt.Sprintf("a%d.md", i), fmt.Sprintf("# Herons %d\n\nThe heron fishes at dawn near reeds%d.\n", i, i))
				writeFile(t, b, fmt.Sprintf("b%d.md", i), fmt.Sprintf("# Boats %d\n\nA heron rides the boat past reeds%d.\n", i, i))
			}
			refreshJSON(t, a)
			refreshJSON(t, b)
			s := startServer(t, "serve", "--root", a, "--root", b, "--addr", "127.0.0.1:0")
			search := func(q string) (agentapi.SearchAnswer, int) {
				var got agentapi.SearchAnswer
				res, err := http.Get(s.base + "/v1/search?" + url.Values{"q": {q}}.Encode())
				if err != nil {
					t.Fatalf("search %q: the server is gone: %v", q, err)
				}
				defer res.Body.Close()
				if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
					t.Fatalf("search %q: %d: %v", q, res.StatusCode, err)
				}
				return got, res.StatusCode
			}
			if got, code := search("heron dawn boat"); code != 200 || len(got.Roots) != 2 || !got.Roots[1].OK {
				t.Fatalf("before: %d %+v", code, got.Roots)
			}
			if n := damageMapped(t, b, how); n == 0 {
				t.Fatal("no mapped file in beta's generation")
			}
			for i := range 3 {
				got, code := search(fmt.Sprintf("heron reeds%d boat", i))
				if code != 200 || len(got.Roots) != 2 || !got.Roots[0].OK || got.Roots[0].Results == 0 {
					t.Fatalf("search %d after beta's files were %s: %d %+v", i, how, code, got.Roots)
				}
				if r := got.Roots[1]; r.OK || r.Error == nil || r.Error.Code != envelope.CodeDamaged {
					t.Errorf("search %d: beta with its mapped files %s: %+v %+v", i, how, r, r.Error)
				}
			}
			// A refresh rebuilds beta, and the server answers from it again.
			refreshJSON(t, b)
			if got, code := search("heron boat again"); code != 200 || !got.Roots[1].OK || got.Roots[1].Results == 0 {
				t.Errorf("after beta's refresh: %d %+v", code, got.Roots)
			}
		})
	}
}
